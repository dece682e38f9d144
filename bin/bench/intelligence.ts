import type { BenchSuite } from './harness';
import { createAccount } from '#shared/domain/accounts/accounts';
import { seedCuratedDataset } from '#bin/curated/seed';
import { getSeedMarker } from '#shared/store/curatedReads';
import { uuidv7 } from '#shared/ids';
import { PACKAGES } from '#shared/domain/intelligence/packages';

const N = Number(process.env.BENCH_INTEL_N ?? 20);

/** Each package's own example slots (the limit is set per row). */
const PACKAGE_SLOTS: Record<string, Record<string, unknown>> = Object.fromEntries(
  Object.values(PACKAGES).map((pkg) => {
    const { limit: _limit, ...slots } = pkg.example.slots as Record<string, unknown>;
    return [pkg.id, slots];
  }),
);

/**
 * Intelligence on the full curated dataset: resolve, quote, GET results, contact_unlock, and execute per
 * package at limit 10 and 100 (50 for company people). Each execute runs for a fresh user, so the
 * identical-query rule never short-cuts it; quotes are made before the clock starts.
 */
export const intelligenceBench: BenchSuite = {
  name: 'Intelligence (full curated dataset)',
  async run({ call, measure, print }) {
    // An earlier suite of the same run may have seeded a smaller dataset (the jobs suite seeds a third).
    const marker = await getSeedMarker();
    if (marker?.scale !== 1) {
      const seeded = await seedCuratedDataset({ force: true });
      print(`seeded ${seeded.marker.items} curated items in ${(seeded.ms / 1000).toFixed(1)} s`);
    }
    const newKey = async () =>
      (await createAccount({ email: `bench-intel-${uuidv7()}@example.com`, tier: 'pro', credits: 1_000_000 })).apiKey;
    const slots = PACKAGE_SLOTS['vc-shortlist-v1'];
    await measure('POST /intelligence/resolve (request_text)', N, () =>
      call('POST', '/intelligence/resolve', {
        body: { package_id: 'vc-shortlist-v1', request_text: PACKAGES['vc-shortlist-v1'].example.request_text },
      }),
    );
    await measure('POST /intelligence/quote (vc-shortlist-v1)', N, () =>
      call('POST', '/intelligence/quote', { body: { package_id: 'vc-shortlist-v1', slots } }),
    );

    for (const [packageId, base] of Object.entries(PACKAGE_SLOTS)) {
      for (const limit of [10, 100]) {
        const capped = packageId === 'company-people-discovery-v1' ? Math.min(limit, 50) : limit;
        const body = { package_id: packageId, slots: { ...base, limit: capped } };
        const prepared: { key: string; token: string }[] = [];
        for (let i = 0; i < N; i++) {
          const key = await newKey();
          prepared.push({ key, token: (await call('POST', '/intelligence/quote', { key, body })).quote_token });
        }
        await measure(`POST /intelligence/execute ${packageId} @${capped}`, N, (i) =>
          call('POST', '/intelligence/execute', {
            key: prepared[i].key,
            body: { ...body, quote_token: prepared[i].token },
          }),
        );
      }
    }

    const key = await newKey();
    const q = await call('POST', '/intelligence/quote', {
      key,
      body: { package_id: 'vc-shortlist-v1', slots: { ...slots, limit: 100 } },
    });
    const result = await call('POST', '/intelligence/execute', {
      key,
      body: { package_id: 'vc-shortlist-v1', slots: { ...slots, limit: 100 }, quote_token: q.quote_token },
    });
    await measure('GET /intelligence/results/{id} (100 records)', N, () =>
      call('GET', `/intelligence/results/${result.result_id}`, { key }),
    );
    const ranked = (await call('GET', `/intelligence/results/${result.result_id}`, { key })).records.map(
      (r: { record_id: string }) => r.record_id,
    );
    const tokens: string[] = [];
    for (let i = 0; i < N; i++) {
      const params = { selection: { mode: 'ids', record_ids: [ranked[i]] }, contact_tier: 'email' };
      tokens.push(
        (
          await call('POST', '/intelligence/quote', {
            key,
            body: {
              package_id: 'vc-shortlist-v1',
              expansion_scope: {
                parent_result_id: result.result_id,
                expansion_type: 'contact_unlock',
                expansion_params: params,
              },
            },
          })
        ).quote_token,
      );
    }
    await measure('POST /intelligence/expand contact_unlock (1 fund)', N, (i) =>
      call('POST', '/intelligence/expand', {
        key,
        body: {
          parent_result_id: result.result_id,
          expansion_type: 'contact_unlock',
          expansion_params: { selection: { mode: 'ids', record_ids: [ranked[i]] }, contact_tier: 'email' },
          quote_token: tokens[i],
        },
      }),
    );
  },
};
