/**
 * The upload preview's two halves: read the start of a file (decompressing a .gz as the load
 * will), and ask the engine how it reads those lines with the chosen options. The engine's own
 * detection and line parsers answer (engine trace::preview), so the preview cannot disagree
 * with the load.
 */
import type { TracePreview } from '../engine/protocol';
import { openTrace } from '../engine/gunzip';
import { parseOptionsJson, type ParseChoices, type TraceClient } from '../engine/traceStream';

/** Bytes of the file's start the preview reads (the engine's detection reads at most 64 KiB). */
export const PREVIEW_BYTES = 64 * 1024;
/** Lines shown. */
export const PREVIEW_LINES = 12;

/** The start of a file: at least `max` bytes (fewer if it is shorter), and whether that is all. */
export interface Sample {
  bytes: Uint8Array;
  complete: boolean;
}

/** Reads the start of `file` (decompressed when gzip), stopping once `max` bytes are in. */
export async function readSample(file: Blob, name: string, max = PREVIEW_BYTES): Promise<Sample> {
  const opened = await openTrace(file.stream(), name);
  const reader = opened.stream.getReader();
  const parts: Uint8Array[] = [];
  let have = 0;
  let complete = false;
  try {
    while (have < max) {
      const { done, value } = await reader.read();
      if (done) {
        complete = true;
        break;
      }
      parts.push(value);
      have += value.length;
    }
  } finally {
    void reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(Math.min(have, max));
  let at = 0;
  for (const p of parts) {
    const take = Math.min(p.length, bytes.length - at);
    bytes.set(p.subarray(0, take), at);
    at += take;
  }
  // Cut at `max`: more was there, so the sample is not the whole file.
  return { bytes, complete: complete && have <= max };
}

/** The engine's preview of `sample` with `choices` (format undefined = detect). */
export async function previewSample(
  client: TraceClient,
  sample: Sample,
  choices: ParseChoices,
  maxLines = PREVIEW_LINES,
): Promise<TracePreview> {
  // A copy is transferred, so the sample can be previewed again with other options.
  const copy = sample.bytes.slice().buffer;
  const r = await client.request<'tracePreviewed'>(
    {
      type: 'tracePreview',
      sample: copy,
      complete: sample.complete,
      format: choices.format,
      optionsJson: parseOptionsJson(choices),
      maxLines,
    },
    [copy],
  );
  return r.preview;
}
