/** The ui slice: how the user looks at the simulation (speed, heat colouring, help, tab). */
import { SPEEDS } from './speeds';
import type { StageChoice, StateCell } from './state';

export class Ui {
  constructor(private readonly state: StateCell) {}

  /** Chooses a playback speed (clamped to the SPEEDS table). */
  setSpeed(speed: number) {
    this.state.set({ speed: Math.max(0, Math.min(SPEEDS.length - 1, speed)) });
  }

  toggleHeat() {
    this.state.set({ heat: !this.state.get().heat });
  }

  setHelp(open: boolean) {
    this.state.set({ help: open });
  }

  /** Opens side tab `id` (undefined: the first); in the store so a shared link can name it. */
  setTab(id: string | undefined) {
    this.state.set({ tab: id });
  }

  /** Puts views on the stage (a view beside itself is dropped: it shows once). */
  setStage(choice: StageChoice) {
    const next: StageChoice =
      choice.side && choice.side !== choice.main ? { main: choice.main, side: choice.side } : { main: choice.main };
    const now = this.state.get().stage;
    if (now.main !== next.main || now.side !== next.side) this.state.set({ stage: next });
  }

  /** Shows a note in the status area until the next move (e.g. what a link could not restore). */
  notify(text: string) {
    this.state.set({ notice: text });
  }
}
