import { html } from './view';

/**
 * Credits per day as SVG bars: a few dozen rectangles need no chart library, and attributes (not
 * inline styles) keep it inside the page's CSP. Scales with its box through the viewBox.
 */
export function BarChart({ days }: { days: { date: string; credits: number }[] }) {
  const width = 600,
    height = 160,
    top = 4,
    bottom = 1;
  const max = Math.max(1, ...days.map((d) => d.credits));
  const step = width / Math.max(1, days.length);
  const bar = Math.max(1, step * 0.75);
  const total = days.reduce((s, d) => s + d.credits, 0);
  return html`
    <figure class="chart">
      <svg viewBox="0 0 ${width} ${height}" role="img" aria-label=${`Credits used per day: ${total} over ${days.length} days, at most ${max} in a day`}>
        <line x1="0" x2=${width} y1=${height - bottom} y2=${height - bottom} class="axis" />
        ${days.map((d, i) => {
          const h = ((height - top - bottom) * d.credits) / max;
          return html`<rect class="bar" x=${i * step + (step - bar) / 2} y=${height - bottom - h} width=${bar} height=${h}><title>${d.date}: ${d.credits} credits</title></rect>`;
        })}
      </svg>
      ${days.length ? html`<figcaption class="row spread small muted"><span>${days[0].date}</span><span>highest ${max} a day</span><span>${days[days.length - 1].date}</span></figcaption>` : null}
    </figure>`;
}
