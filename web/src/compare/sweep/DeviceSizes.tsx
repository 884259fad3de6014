import { bytes } from '../../traces/format';
import type { TraceDevices } from './deviceSizes';

/**
 * The device behind each utilization of a footprint-axis experiment, per trace: the user's
 * trace gets a device sized around its own footprint (as `ftl sweep --trace-file` does).
 */
export function DeviceSizes({ traces }: { traces: TraceDevices[] }) {
  return (
    <section className="sweep__devices" aria-label="Device per utilization">
      <h4>Device per utilization (footprint / capacity)</h4>
      <table className="compare__table" data-testid="device-sizes">
        <thead>
          <tr>
            <th>Trace</th>
            <th>Footprint</th>
            {traces[0]?.sizes.map((s) => (
              <th key={s.label}>u = {s.label}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {traces.map((t) => (
            <tr key={t.trace} data-trace={t.trace}>
              <th scope="row">
                {t.trace}
                {t.user && ' (your trace)'}
              </th>
              <td>{t.footprintBytes != null ? `${bytes(t.footprintBytes)} (measured)` : "the experiment's"}</td>
              {t.sizes.map((s) => (
                <td
                  key={s.label}
                  data-blocks={s.blocks}
                  title={`${s.blocks.toLocaleString('en-US')} blocks; ${(100 * s.prefilled).toFixed(1)} % of the logical space pre-filled`}
                >
                  {bytes(s.bytes)} · {s.blocks.toLocaleString('en-US')} blocks
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
