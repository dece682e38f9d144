import { useState } from 'preact/hooks';
import { get } from './api';
import { BarChart } from './chart';
import { html, num, Status, toolLabel, useLoad, when } from './view';

interface Usage {
  start_date: string;
  end_date: string;
  total_used: number;
  allowance: number | null;
  percentage_used: number | null;
  average_daily: number;
  projected: number | null;
  top_tool: string | null;
  by_tool: { tool_name: string; credits: number }[];
  by_day: { date: string; credits: number }[];
}
interface Me {
  email: string;
  subscription_tier: string;
  permanent_credit_balance: number;
  current_period_end: string | null;
}
interface Subscription {
  tier: string;
  status: string;
  credits_total: number;
  credits_expiring: string | null;
  next_billing_date: string | null;
}

export function UsageScreen() {
  // No range at first: the API's default (the last 30 days), whose dates then fill the form.
  const [range, setRange] = useState<{ start: string; end: string }>();
  const account = useLoad(() => Promise.all([get<Me>('/users/me'), get<Subscription>('/subscriptions/status')]));
  const usage = useLoad(
    () => get<Usage>(range ? `/credits/usage?start_date=${range.start}&end_date=${range.end}` : '/credits/usage'),
    [range?.start, range?.end],
  );
  const onSubmit = (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    setRange({ start: String(form.get('start')), end: String(form.get('end')) });
  };
  const [me, sub] = account.data ?? [];
  const u = usage.data;
  return html`
    <section aria-labelledby="balance-h">
      <h2 id="balance-h">Balance</h2>
      <${Status} loaded=${account}>
        ${
          me &&
          sub &&
          html`<dl class="cards">
          <div><dt>Credits available</dt><dd class="big" data-testid="balance">${num(sub.credits_total)}</dd></div>
          <div><dt>Of which never expire</dt><dd>${num(me.permanent_credit_balance)}</dd></div>
          <div><dt>Plan</dt><dd>${sub.tier} (${sub.status})</dd></div>
          <div><dt>Monthly credits expire</dt><dd>${when(sub.credits_expiring)}</dd></div>
        </dl>`
        }
      <//>
    </section>
    <section aria-labelledby="usage-h">
      <h2 id="usage-h">Usage</h2>
      <form class="row" onSubmit=${onSubmit}>
        <label>From <input type="date" name="start" value=${range?.start ?? usage.data?.start_date} required /></label>
        <label>To <input type="date" name="end" value=${range?.end ?? usage.data?.end_date} required /></label>
        <button type="submit">Show</button>
      </form>
      <${Status} loaded=${usage}>
        ${
          u &&
          html`
          <dl class="cards">
            <div><dt>Used</dt><dd class="big">${num(u.total_used)}</dd></div>
            <div><dt>Allowance</dt><dd>${u.allowance === null ? 'none' : `${num(u.allowance)} (${u.percentage_used}% used)`}</dd></div>
            <div><dt>Per day</dt><dd>${u.average_daily}</dd></div>
            <div><dt>30 days at this rate</dt><dd>${u.projected === null ? html`<span class="small muted">needs a range of 7 days or more</span>` : num(u.projected)}</dd></div>
          </dl>
          <h3>By day</h3>
          ${u.total_used === 0 ? html`<p class="empty">No credits used from ${u.start_date} to ${u.end_date}. Start a job on the Jobs tab, or widen the dates.</p>` : html`<${BarChart} days=${u.by_day} />`}
          <h3>By tool</h3>
          ${
            u.by_tool.length === 0
              ? html`<p class="empty">Nothing charged in this range yet.</p>`
              : html`
            <table><thead><tr><th scope="col">Tool</th><th scope="col" class="n">Credits</th></tr></thead>
              <tbody>${u.by_tool.map((t) => html`<tr><td>${toolLabel(t.tool_name)}</td><td class="n">${num(t.credits)}</td></tr>`)}</tbody></table>`
          }
        `
        }
      <//>
    </section>`;
}
