/** The ui slice: how the user looks at the simulation (speed, heat colouring, help). */
import { SPEEDS } from './speeds';
import type { StateCell } from './state';

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
}
