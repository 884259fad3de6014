/**
 * Playing the synchronised pair: one step of both sides, a pause, the next, until the end
 * or a stop. A step waits for both sides, so they never drift apart while playing. Paced for
 * watching two narrations, not for speed.
 */

/** Time between the pair's steps while playing (ms): two requests a second. */
export const SYNC_PLAY_MS = 500;

export class PairPlayer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private on = false;

  /**
   * `step` moves both sides one request and resolves with whether more requests remain;
   * `changed` hears when playing starts and stops.
   */
  constructor(
    private readonly step: () => Promise<boolean>,
    private readonly changed: (playing: boolean) => void,
    private readonly everyMs = SYNC_PLAY_MS,
  ) {}

  get playing(): boolean {
    return this.on;
  }

  start() {
    if (this.on) return;
    this.on = true;
    this.changed(true);
    void this.tick();
  }

  stop() {
    if (!this.on) return;
    this.on = false;
    clearTimeout(this.timer);
    this.changed(false);
  }

  toggle() {
    if (this.on) this.stop();
    else this.start();
  }

  private async tick() {
    if (!this.on) return;
    let more: boolean;
    try {
      more = await this.step();
    } catch {
      more = false; // a side failed: its error shows on it; stop rather than step the other
    }
    if (!this.on) return;
    if (!more) return this.stop();
    this.timer = setTimeout(() => void this.tick(), this.everyMs);
  }
}
