/**
 * The app's one comparison lab and sweep lab (they share one worker pool): results survive
 * switching tabs, and a shared link reads and sets their settings (web/src/share/) without
 * going through the panels.
 */
import { defaultCold } from './cold';
import { CompareLab } from './lab';
import { sharedPool } from './sharedPool';
import { SweepLab } from './sweep/sweepLab';

/** One worker answers both labs' cold questions. */
const cold = defaultCold();
export const compareLab = new CompareLab(sharedPool, cold);
/** The Compare tab's sweep lab (its Sweep mode), one for the app too. */
export const sweepLab = new SweepLab(sharedPool, cold);
