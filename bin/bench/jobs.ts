import { generateDataset } from '#bin/curated/generator';
import { seedCuratedDataset } from '#bin/curated/seed';
import { getSeedMarker } from '#shared/store/curatedReads';
import { dynamoRequestCount } from '#shared/store/client';
import type { BenchSuite } from './harness';

const COMPANIES = 1000;
/** A third of the curated dataset gives about 1,300 companies, enough for 1,000 real ones, in seconds. */
const BENCH_DATASET_SCALE = 0.33;

/**
 * One 1,000-company full_pipeline job end to end on the local stack: POST, the SQS-shaped pipeline
 * through the worker, finalisation. Reports wall time, rows per second, queue messages and DynamoDB
 * requests per row, then the read endpoints' latencies over the finished job.
 */
export const jobsBench: BenchSuite = {
  name: 'Enrichment jobs (1,000-company full_pipeline)',
  async run({ call, measure, print, ports }) {
    const marker =
      (await getSeedMarker()) ?? (await seedCuratedDataset({ scale: BENCH_DATASET_SCALE, concurrency: 16 })).marker;
    const curated = generateDataset({ seed: marker.seed, scale: marker.scale }).companies.slice(0, COMPANIES);
    const companies = Array.from({ length: COMPANIES }, (_, i) =>
      curated[i]
        ? { company_name: curated[i].name, website: curated[i].website }
        : { company_name: `Bench ${i}`, domain: `bench-${i}.example.org` },
    );

    const requestsBefore = dynamoRequestCount();
    const messagesBefore = ports.queue.sentCount;
    const started = performance.now();
    const created = await call('POST', '/bd/jobs', {
      body: { preset: 'full_pipeline', input_assets: { companies } },
      expect: 202,
    });
    const createdMs = performance.now() - started;
    await ports.queue.drained();
    const wallMs = performance.now() - started;
    const job = await call('GET', `/bd/jobs/${created.job_id}`);
    if (job.status !== 'completed') throw new Error(`Bench job ended ${job.status}: ${job.error_message}`);
    const requests = dynamoRequestCount() - requestsBefore;
    const messages = ports.queue.sentCount - messagesBefore;
    const rows = job.stats.rows_delivered as number;

    print(
      `companies in (curated / unknown)          ${COMPANIES} (${Math.min(curated.length, COMPANIES)} / ${COMPANIES - Math.min(curated.length, COMPANIES)})`,
    );
    print(`POST /bd/jobs (202)                       ${createdMs.toFixed(0)} ms`);
    print(`wall time to completed                    ${(wallMs / 1000).toFixed(2)} s`);
    print(
      `rows delivered                            ${rows}  (${job.stats.units.contact_discovery} contacts found, ${job.stats.units.email_lookup} e-mails found)`,
    );
    print(
      `throughput                                ${((COMPANIES / wallMs) * 1000).toFixed(0)} companies/s, ${((rows / wallMs) * 1000).toFixed(0)} delivered rows/s`,
    );
    print(
      `queue messages                            ${messages} (${job.stats.batches} batches x stages + finalisation)`,
    );
    print(
      `DynamoDB requests                         ${requests} total, ${(requests / COMPANIES).toFixed(2)} per input company, ${(requests / rows).toFixed(2)} per delivered row`,
    );
    print(`credits reserved / charged                ${job.credits_reserved} / ${job.credits_charged}`);

    await measure('GET /bd/jobs/{id}', 200, () => call('GET', `/bd/jobs/${created.job_id}`));
    await measure('GET /bd/jobs (page of 50)', 200, () => call('GET', '/bd/jobs?limit=50'));
    await measure(`GET /bd/jobs/{id}/export?format=json (${rows} rows)`, 20, () =>
      call('GET', `/bd/jobs/${created.job_id}/export?format=json`),
    );
    await measure(`GET /bd/jobs/{id}/export?format=csv (${rows} rows)`, 20, () =>
      call('GET', `/bd/jobs/${created.job_id}/export?format=csv`),
    );
  },
};
