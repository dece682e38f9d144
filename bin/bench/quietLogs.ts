// Imported first by bin/bench.ts, before any module builds the logger: the bench prints figures, not
// one access line per measured request (a level set in the environment still wins).
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
