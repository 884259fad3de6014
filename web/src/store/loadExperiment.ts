/**
 * The two halves of loading an experiment: stream its trace into the worker's parser, then
 * build the simulation from the parse. Until the build succeeds the worker keeps the
 * simulation it had, which is why a failure or a Stop here can leave the old one running.
 */
import type { SimClient } from '../engine/client';
import type { SimInfo, TraceParse, ViewData } from '../engine/protocol';
import { fetchSource, fileSource, streamTrace, type ParseChoices } from '../engine/traceStream';
import type { Experiment } from './experiment';
import type { Busy } from './state';

/** A built simulation: the trace's parse, the engine's facts and the first view. */
export interface Loaded {
  parse: TraceParse;
  info: SimInfo;
  view: ViewData;
}

/**
 * Reads `experiment`'s trace with `choices` and builds its simulation. Rejects with the
 * located trace error, the engine's refusal of the config, or (once `signal` aborts while
 * reading) the abort reason. An abort after the build was sent is up to the worker: it
 * answers a `cancel` with a cancelled error if it had not replaced the simulation yet.
 */
export async function loadExperiment(
  client: Pick<SimClient, 'request'>,
  experiment: Experiment,
  choices: ParseChoices,
  signal: AbortSignal,
  onProgress: (p: Busy) => void,
): Promise<Loaded> {
  const name = experiment.traceName;
  const source = experiment.file ? fileSource(experiment.file) : await fetchSource(experiment.traceUrl, name, signal);
  const parse = await streamTrace(
    client,
    source,
    choices,
    (done, total) => onProgress({ label: `Reading ${name}`, done, total }),
    signal,
  );
  signal.throwIfAborted();
  onProgress({ label: `Preparing ${parse.summary.requests.toLocaleString('en-US')} requests`, done: 0, total: 0 });
  const reply = await client.request<'loaded'>(
    { type: 'loadParsed', configJson: JSON.stringify(experiment.config), traceName: name },
    [],
    onProgress,
  );
  return { parse, info: reply.info, view: reply.view };
}
