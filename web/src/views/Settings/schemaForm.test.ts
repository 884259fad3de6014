import { describe, expect, it } from 'vitest';
import { firstSentence, formFromSchema, getAt, label, optionFields, parseInput, setAt } from './schemaForm';
import type { Schema } from '../../engine/configSchema';

// The shapes schemars emits for the engine config (a trimmed copy of configSchemaJson()).
const SCHEMA: Schema = {
  type: 'object',
  properties: {
    scheme: { type: 'string', description: 'Scheme id.' },
    device: { $ref: '#/$defs/DeviceConfig', description: 'The device.' },
    timing: { $ref: '#/$defs/TimingMode' },
    seed: { type: 'integer', format: 'uint64', minimum: 0 },
  },
  $defs: {
    DeviceConfig: {
      type: 'object',
      properties: {
        blocks: { type: 'integer', minimum: 0, description: 'Physical blocks in the device.', 'x-units': 'blocks' },
        over_provisioning: { type: 'number', 'x-units': 'fraction' },
        cell: { $ref: '#/$defs/CellType' },
        latency: { $ref: '#/$defs/Latencies' },
      },
    },
    Latencies: { type: 'object', properties: { program_ns: { type: 'integer', 'x-units': 'ns' } } },
    CellType: {
      oneOf: [
        { type: 'string', const: 'slc', description: 'Single-level cell.' },
        { type: 'string', const: 'mlc', description: 'Multi-level cell.' },
      ],
    },
    TimingMode: {
      oneOf: [
        { type: 'string', enum: ['trace', 'closed'] },
        {
          type: 'object',
          properties: { fixed: { type: 'object', properties: { period_ns: { type: 'integer' } } } },
          required: ['fixed'],
        },
      ],
    },
  },
};

describe('formFromSchema', () => {
  it('makes groups of objects and typed fields with units, docs and choices', () => {
    const form = formFromSchema(SCHEMA, ['scheme']);
    expect(form.fields.map((f) => f.path)).toEqual(['timing', 'seed']);
    const device = form.groups.find((g) => g.path === 'device')!;
    expect(device.doc).toBe('The device.');
    const blocks = device.fields.find((f) => f.path === 'device.blocks')!;
    expect(blocks).toMatchObject({ kind: 'integer', units: 'blocks', doc: 'Physical blocks in the device.', min: 0 });
    expect(device.fields.find((f) => f.path === 'device.cell')!.choices!.map((c) => c.value)).toEqual(['slc', 'mlc']);
    expect(device.groups[0].fields[0]).toMatchObject({ path: 'device.latency.program_ns', units: 'ns' });
  });

  it('reads tagged enum variants, including one carrying data', () => {
    const timing = formFromSchema(SCHEMA).fields.find((f) => f.path === 'timing')!;
    expect(timing.choices!.map((c) => c.value)).toEqual(['trace', 'closed', 'fixed']);
    expect(timing.choices![2].fields!.map((f) => f.path)).toEqual(['timing.fixed.period_ns']);
  });
});

describe('optionFields', () => {
  it('types a scheme option from its default and keeps its doc', () => {
    const f = optionFields([{ key: 'batch_update', doc: 'Write back a whole translation page.' }], {
      batch_update: true,
    });
    expect(f).toEqual([
      {
        path: 'options.batch_update',
        label: 'Batch update',
        doc: 'Write back a whole translation page.',
        units: undefined,
        kind: 'boolean',
      },
    ]);
  });
});

describe('paths and inputs', () => {
  it('sets a nested value without touching the original', () => {
    const c = { device: { blocks: 64, cell: 'slc' } };
    const d = setAt(c, 'device.blocks', 128);
    expect(getAt(d, 'device.blocks')).toBe(128);
    expect(getAt(d, 'device.cell')).toBe('slc');
    expect(c.device.blocks).toBe(64);
  });

  it('parses numbers with separators and refuses fractions for integers', () => {
    const f = { path: 'device.blocks', label: 'Blocks', kind: 'integer' as const };
    expect(parseInput(f, '8_192')).toEqual({ value: 8192 });
    expect(parseInput(f, '1.5')).toEqual({ error: 'Blocks: a whole number is needed' });
  });
});

describe('labels and help text', () => {
  it('writes acronyms in capitals', () => {
    expect(['gc', 'oob_bytes', 'ram', 'over_provisioning', 'max_dtps'].map(label)).toEqual([
      'GC',
      'OOB bytes',
      'RAM',
      'Over provisioning',
      'Max DTPs',
    ]);
  });

  it('keeps the list a colon introduces, and ends at a full stop outside brackets', () => {
    expect(firstSentence('GC per invocation: `one-victim` (default, the thesis) or `until-above-reserve`.')).toBe(
      'GC per invocation: `one-victim` (default, the thesis) or `until-above-reserve`.',
    );
    expect(firstSentence("Victim selection: `greedy` (the thesis' choice), or `fifo`. More.")).toBe(
      "Victim selection: `greedy` (the thesis' choice), or `fifo`.",
    );
    expect(firstSentence('Ghost share (the paper: 0.14 of 2 MB = 0.07; Fig. 7(b)\nvaries it). At least two.')).toBe(
      'Ghost share (the paper: 0.14 of 2 MB = 0.07; Fig. 7(b) varies it).',
    );
    expect(firstSentence('Bytes, e.g. 4096 or more. Rest.')).toBe('Bytes, e.g. 4096 or more.');
  });
});
