/**
 * Keeps the address bar and the experiment in step. Opening the app on a link restores it;
 * afterwards every settled change rewrites the link: a new experiment (scheme, settings,
 * trace, parser options) is a new history entry (pushState), so back / forward move between
 * experiments, while moving the timeline, switching tabs or the comparison's schemes only
 * replaces the entry (replaceState). Nothing is written while playing or loading, or while a
 * link is being restored. What a link could not restore is said in the status area.
 */
import type { CompareLab } from '../compare/lab';
import { errorMessage } from '../engine/errors';
import { DEFAULT_EXPERIMENT } from '../store/experiment';
import type { SimStore } from '../store/store';
import { RESET_HINT } from '../store/moveQueue';
import { encodeFragment, isShareFragment, ShareError } from './codec';
import { experimentKey, shareExperiment } from './experimentLink';
import { checkSuppliedFile, resolveLink, type Resolved, type RestoreHost } from './restore';
import { shareSections } from './sections';
import { quote, type SharedState, type SharedTrace } from './state';
import { describeUpload } from './uploads';
import { Observable } from '../store/observable';

/** Quiet time after a change before the link is rewritten (ms). */
const WRITE_AFTER_MS = 300;
/** How long "Link copied." stays (ms). */
const COPIED_FOR_MS = 5000;

/** What the share bar shows. */
export interface ShareView {
  /** The uploaded trace a link needs and the user is asked for; `problem` after a wrong file. */
  pending?: { name: string; hash: string; size: number; problem?: string };
  /** The link Copy link built, and whether the clipboard took it (else it is shown to copy). */
  copied?: { url: string; ok: boolean };
}

/** The parts of `window` used (tests pass their own). */
export interface ShareWindow {
  location: { hash: string; href: string };
  history: Pick<History, 'pushState' | 'replaceState'>;
  addEventListener(type: 'popstate' | 'hashchange', fn: () => void): void;
}

type NeedsFile = Extract<Resolved, { kind: 'needsFile' }>;

/** Each section's captured value as JSON, by key. */
type SectionValues = Map<string, string | undefined>;

/** A restore as it began: its epoch, and the sections' values then. */
interface Begun {
  epoch: number;
  sections: SectionValues;
}

function sectionValues(): SectionValues {
  return new Map(shareSections().map((s) => [s.key, JSON.stringify(s.capture())]));
}

export class ShareController extends Observable<ShareView> {
  /** Writes are held while a link is being restored. */
  private restoring = 0;
  /** Bumped by every restore: a write that began before one is stale and skipped. */
  private epoch = 0;
  /** experimentKey of the link in the address bar (push when the experiment differs). */
  private lastKey?: string;
  private timer?: ReturnType<typeof setTimeout>;
  private writes: Promise<void> = Promise.resolve();
  private waiting?: { link: NeedsFile; shown: unknown };
  /** A restore left a section as the user changed it (the link in the address bar is stale). */
  private keptChange = false;
  /** The fragment the last popstate restored (its hashchange, if any, is then skipped). */
  private popped?: string;

  constructor(
    private readonly store: SimStore,
    private readonly lab: CompareLab,
    private readonly host: RestoreHost,
    private readonly win: ShareWindow = window,
  ) {
    super({});
  }

  /** Opens the app: the link in the address bar, or the default experiment; then follows changes. */
  async start() {
    await this.restore((begun) =>
      isShareFragment(this.win.location.hash) ? this.open(this.win.location.hash, begun, true) : this.store.load(),
    );
    const changed = () => this.changed();
    this.store.subscribe(changed);
    this.lab.subscribe(changed);
    for (const s of shareSections()) s.subscribe(changed);
    this.win.addEventListener('popstate', () => void this.onPop());
    // A link pasted into the address bar of the open app changes only the fragment: browsers
    // fire popstate for that too, but not all of them, so hashchange catches the rest.
    this.win.addEventListener('hashchange', () => {
      if (this.win.location.hash !== this.popped) void this.onPop();
    });
  }

  /** The link to the experiment on screen, as it stands now. */
  async link(): Promise<string> {
    const { state, segment } = await this.capture();
    return this.urlFor(state, segment);
  }

  /** Copy link: to the clipboard, or shown in a field to copy by hand when that is refused. */
  async copy() {
    let url: string;
    try {
      url = await this.link();
    } catch (e) {
      // E.g. no Web Crypto to hash an upload with (a page not served over https).
      return this.store.notify(`Cannot make a link: ${errorMessage(e)}`);
    }
    let ok = false;
    try {
      await navigator.clipboard.writeText(url);
      ok = true;
    } catch {
      // No clipboard (insecure context, permission refused): the share bar shows the link.
    }
    const copied = { url, ok };
    this.set({ copied });
    // "Link copied." is said for a moment; a link to copy by hand stays until the next copy.
    if (ok) setTimeout(() => this.state.copied === copied && this.set({ copied: undefined }), COPIED_FOR_MS);
    this.schedule(0);
  }

  /** The file the user picked for a link waiting for its trace: checked, then opened. */
  async supply(file: File) {
    const w = this.waiting;
    if (!w) return;
    let checked: File;
    try {
      checked = await checkSuppliedFile(file, w.link.upload);
    } catch (e) {
      return this.set({ pending: { ...w.link.upload, problem: errorMessage(e) } });
    }
    this.waiting = undefined;
    this.set({ pending: undefined });
    const { state, config, dropped, upload } = w.link;
    await this.restore((begun) =>
      this.apply(
        {
          kind: 'ready',
          state,
          dropped,
          experiment: { traceUrl: '', traceName: upload.name, file: checked, traceHash: upload.hash, config },
        },
        begun,
      ),
    );
  }

  /** Gives up on a link waiting for its trace (the experiment on screen stays). */
  dismiss() {
    this.waiting = undefined;
    this.set({ pending: undefined });
  }

  // ---- restoring ----

  /**
   * Runs `work` with link writes held, then notes the link of what is on screen. `work` gets
   * the restore's start (see `apply`).
   */
  private async restore(work: (begun: Begun) => Promise<void>) {
    clearTimeout(this.timer);
    this.restoring++;
    const begun = { epoch: ++this.epoch, sections: sectionValues() };
    try {
      await work(begun);
    } finally {
      this.restoring--;
    }
    if (!this.waiting && this.store.getState().info) this.lastKey = experimentKey((await this.capture()).state);
    // The address bar still holds the link: write what is on screen, the kept change with it.
    if (this.keptChange && !this.restoring) {
      this.keptChange = false;
      this.changed();
    }
  }

  private async onPop() {
    const hash = this.win.location.hash;
    this.popped = hash;
    this.dismiss();
    await this.restore(async (begun) => {
      if (isShareFragment(hash)) return this.open(hash, begun, false);
      // The entry the app was opened on, before any link was written: the default experiment.
      await this.apply(
        {
          kind: 'ready',
          state: { scheme: 'page', trace: { shipped: DEFAULT_EXPERIMENT.traceName } },
          dropped: [],
          experiment: DEFAULT_EXPERIMENT,
        },
        begun,
      );
    });
  }

  /** Opens link `fragment`; `initial` when the app starts on it (nothing loaded yet). */
  private async open(fragment: string, begun: Begun, initial: boolean) {
    let r: Resolved;
    try {
      r = await resolveLink(fragment, this.host);
    } catch (e) {
      if (this.overtaken(begun)) return;
      return this.refuse(e instanceof ShareError ? e.message : `It could not be read: ${errorMessage(e)}.`, initial);
    }
    if (this.overtaken(begun)) return;
    if (r.kind === 'ready') return this.apply(r, begun, initial);
    if (!this.store.getState().info) await this.store.load(DEFAULT_EXPERIMENT, {});
    const { name, size } = r.upload;
    this.waiting = { link: r, shown: this.store.getState().experiment };
    this.set({ pending: { ...r.upload } });
    this.store.notify(
      `This link runs on the uploaded trace ${name} (${size.toLocaleString('en-US')} bytes), too large to travel inside a link and not in this browser's library: choose that file to open it.`,
    );
  }

  /** Says why a link was not opened; with nothing loaded, the default experiment opens. */
  private async refuse(why: string, initial: boolean) {
    const s = this.store.getState();
    if (!s.info) await this.store.load(DEFAULT_EXPERIMENT, {});
    // The link crashed the engine: back to the experiment before it, so the one instruction
    // given is the one below (not also "press Reset").
    else if (s.status === 'error') await this.store.reset();
    this.store.notify(
      `Cannot open this link. ${why.replace(RESET_HINT, '')} ${initial ? 'The default experiment is open instead.' : 'The experiment on screen stays.'}`,
    );
  }

  /**
   * Loads a resolved link's experiment (unless it is the one on screen), then its view. A
   * restore that a later one overtook stops at its next step (the later link is the one to
   * show). A section that changed while the link was loading (its value when the restore
   * began is in `begun`) keeps that change: the user acted meanwhile (left the presenter,
   * picked a view), which is newer than the link.
   */
  private async apply(r: Extract<Resolved, { kind: 'ready' }>, begun: Begun, initial = false) {
    const { store } = this;
    const same = !!store.getState().info && experimentKey((await this.capture()).state) === experimentKey(r.state);
    if (this.overtaken(begun)) return;
    if (!same) {
      await store.load(r.experiment, r.state.parse ?? {});
      if (this.overtaken(begun)) return;
      const s = store.getState();
      if (s.experiment !== r.experiment) {
        // Refused by the engine or unreadable: a refusal over a loaded experiment is already
        // shown with its reason; with nothing loaded, open the default and say why.
        if (!s.info || s.status === 'error')
          await this.refuse(`${s.message ?? s.traceError ?? 'It could not be loaded.'}`, initial);
        return;
      }
    }
    const notes = [...r.dropped];
    const [request, op] = r.state.at ?? [0, 0];
    const pos = store.getState().pos;
    if (pos.request !== request || pos.op !== op) {
      await store.seek(request, op);
      if (this.overtaken(begun)) return;
      const p = store.getState().pos;
      if (p.request !== request || p.op !== op)
        notes.push(
          `its position (request ${request.toLocaleString('en-US')}, operation ${op}) is past the trace's end, so it stands at request ${p.request.toLocaleString('en-US')}`,
        );
    }
    store.setTab(r.state.tab);
    if (!!r.state.heat !== store.getState().heat) store.toggleHeat();
    this.lab.choose(r.state.compare?.schemes ?? [], r.state.compare?.baseline);
    this.lab.setMode(r.state.compare?.mode ?? 'schemes');
    const sections = r.state.sections ?? {};
    for (const key of Object.keys(sections))
      if (!shareSections().some((s) => s.key === key)) notes.push(`this FTL Lab cannot restore its ${quote(key)}`);
    const now = sectionValues();
    for (const section of shareSections()) {
      if (now.get(section.key) !== begun.sections.get(section.key)) {
        this.keptChange = true;
        continue;
      }
      const note = section.restore(Object.hasOwn(sections, section.key) ? sections[section.key] : undefined);
      if (note) notes.push(note);
    }
    if (notes.length) store.notify(`Opened the shared experiment, but ${notes.join('; ')}.`);
  }

  /** Whether a restore began after `begun`'s. */
  private overtaken(begun: Begun): boolean {
    return begun.epoch !== this.epoch;
  }

  // ---- writing the link ----

  private changed() {
    const w = this.waiting;
    // The user moved on from a link waiting for its file: forget it.
    if (w && this.store.getState().experiment !== w.shown) this.dismiss();
    if (this.restoring || this.waiting) return;
    const s = this.store.getState();
    if (!s.info || s.status === 'loading' || s.status === 'playing' || s.status === 'error') return;
    this.schedule(WRITE_AFTER_MS);
  }

  private schedule(ms: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.writes = this.writes.then(() => this.write()).catch(() => {});
    }, ms);
  }

  /** Rewrites the address bar: a new entry when the experiment changed, else in place. */
  private async write() {
    const epoch = this.epoch;
    const { state, segment } = await this.capture();
    if (this.restoring || this.waiting || epoch !== this.epoch) return;
    const url = this.urlFor(state, segment);
    const key = experimentKey(state);
    if (url !== this.win.location.href) {
      if (this.lastKey !== undefined && key !== this.lastKey) this.win.history.pushState(null, '', url);
      else this.win.history.replaceState(null, '', url);
    }
    this.lastKey = key;
  }

  private urlFor(state: SharedState, segment?: string): string {
    return this.win.location.href.split('#')[0] + encodeFragment(state, segment);
  }

  /** The link's content for what is on screen (and the embedded trace's segment, if any). */
  private async capture(): Promise<{ state: SharedState; segment?: string }> {
    const s = this.store.getState();
    const catalog = await this.store.catalog();
    let trace: SharedTrace;
    let segment: string | undefined;
    if (s.experiment.file) {
      const ref = await describeUpload(s.experiment.file, s.experiment.traceHash);
      trace = { upload: { name: s.experiment.traceName, hash: ref.hash, size: ref.size } };
      segment = ref.segment;
    } else {
      trace = { shipped: s.experiment.traceUrl.replace(/^traces\//, '') };
    }
    const state: SharedState = shareExperiment(catalog, s.experiment, trace, s.parseChoices);
    if (s.pos.request || s.pos.op) state.at = [s.pos.request, s.pos.op];
    if (s.tab) state.tab = s.tab;
    if (s.heat) state.heat = true;
    const lab = this.lab.getState();
    if (lab.selected.length || lab.mode !== 'schemes') {
      state.compare = {
        schemes: lab.selected,
        ...(lab.baseline ? { baseline: lab.baseline } : {}),
        ...(lab.mode !== 'schemes' ? { mode: lab.mode } : {}),
      };
    }
    const sections: Record<string, unknown> = {};
    for (const sec of shareSections()) {
      const v = sec.capture();
      if (v !== undefined) sections[sec.key] = v;
    }
    if (Object.keys(sections).length) state.sections = sections;
    return { state, segment };
  }
}
