// summarize.mjs judges the results of scripts/conformance's suite runs
// against conformance/baseline.yml and prints one summary line.
//
//   node summarize.mjs --baseline FILE --suite-dir DIR [--requirements REV] RUN_DIR...
//
// Each RUN_DIR holds the suite's log (run.log) and its --output-dir
// (results/, one server-<scenario>-<timestamp>/checks.json per scenario).
// A check fails when its status is FAILURE or WARNING, as in the suite's own
// --expected-failures handling. A scenario passes when no check fails; it is
// an expected failure when every failing check is in the baseline (as
// `scenario` or `scenario:check-id`); otherwise it is unexpected. Baseline
// entries that now pass are reported, not failed: they name fixture-only
// checks, so a pass means the baseline needs a look, not that warden broke.
// Scenarios a requirement set runs but does not score (extensions, pending)
// are counted apart and never fail the run.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, basename, resolve } from 'node:path';

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const [, v] = args.splice(i, 2);
  return v;
};
const baselinePath = opt('--baseline');
const suiteDir = opt('--suite-dir');
const runs = args;
const require = createRequire(resolve(suiteDir, 'package.json'));
const YAML = require('yaml');

const baseline = parseBaseline(YAML.parse(readFileSync(baselinePath, 'utf8')) ?? {});
const failing = (c) => c.status === 'FAILURE' || c.status === 'WARNING';

let passed = 0, expected = 0, unexpected = 0, notScored = 0;
const problems = [], stale = [];

for (const run of runs) {
  const label = basename(run);
  const log = existsSync(join(run, 'run.log')) ? readFileSync(join(run, 'run.log'), 'utf8') : '';
  const ran = [...log.matchAll(/^=== Running scenario: (\S+) ===$/gm)].map((m) => m[1]);
  if (!log.includes('=== SUMMARY ===')) {
    problems.push(`${label}: the suite stopped before its summary (see ${join(run, 'run.log')})`);
    unexpected++;
  }
  const scored = scoredScenarios(label);
  const results = readResults(join(run, 'results'));
  for (const scenario of ran) {
    const checks = results.get(scenario);
    if (scored && !scored.has(scenario)) {
      notScored++;
      continue;
    }
    if (!checks) {
      problems.push(`${label} ${scenario}: no results (the scenario crashed; see run.log)`);
      unexpected++;
      continue;
    }
    const fails = latest(checks).filter(failing);
    const whole = baseline.scenarios.has(scenario);
    const perCheck = baseline.checks.get(scenario) ?? new Set();
    const surprise = whole ? [] : fails.filter((c) => !perCheck.has(c.id));
    if (fails.length === 0) passed++;
    else if (surprise.length === 0) expected++;
    else unexpected++;
    for (const c of surprise) {
      problems.push(`${label} ${scenario}:${c.id} ${c.status}: ${oneLine(c.errorMessage)}`);
    }
    if (whole && fails.length === 0) stale.push(`${label} ${scenario}`);
    for (const id of perCheck) {
      if (latest(checks).find((c) => c.id === id)?.status === 'SUCCESS') stale.push(`${label} ${scenario}:${id}`);
    }
  }
}

for (const p of problems) console.log(`conformance: unexpected: ${p}`);
for (const s of stale) console.log(`conformance: baseline entry now passes, review it: ${s}`);
const extra = notScored ? `, ${notScored} run but not scored` : '';
console.log(`conformance: ${passed} passed, ${expected} expected failures (baseline), ${unexpected} unexpected${extra}`);
process.exit(unexpected > 0 ? 1 : 0);

// parseBaseline reads the suite's expected-failures format: a `server` list
// of `scenario` or `scenario:check-id` strings.
function parseBaseline(doc) {
  const scenarios = new Set(), checks = new Map();
  for (const entry of doc.server ?? []) {
    if (typeof entry !== 'string') throw new Error(`baseline: entry ${JSON.stringify(entry)} is not a string (no space after the colon)`);
    const i = entry.indexOf(':');
    if (i < 0) { scenarios.add(entry); continue; }
    const [s, id] = [entry.slice(0, i), entry.slice(i + 1)];
    if (!checks.has(s)) checks.set(s, new Set());
    checks.get(s).add(id);
  }
  return { scenarios, checks };
}

// scoredScenarios is the server list of the requirement set a run is named
// after, or undefined when the run is not a requirement set.
function scoredScenarios(label) {
  if (!label.startsWith('requirements-')) return undefined;
  const rev = label.slice('requirements-'.length);
  const doc = YAML.parse(readFileSync(join(suiteDir, 'requirements', `${rev}.yaml`), 'utf8'));
  return new Set(doc.server ?? []);
}

// readResults maps each scenario to its checks; a directory is named
// server-<scenario>-<ISO timestamp with dashes>.
function readResults(dir) {
  const out = new Map();
  if (!existsSync(dir)) return out;
  for (const d of readdirSync(dir).sort()) {
    const m = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(d);
    const file = join(dir, d, 'checks.json');
    if (!m || !existsSync(file)) continue;
    out.set(m[1], JSON.parse(readFileSync(file, 'utf8')));
  }
  return out;
}

// latest collapses repeated check ids to one verdict, most severe first,
// as the suite does.
function latest(checks) {
  const rank = { FAILURE: 3, WARNING: 2, SUCCESS: 1 };
  const byId = new Map();
  for (const c of checks) {
    const prev = byId.get(c.id);
    if (!prev || (rank[c.status] ?? 0) > (rank[prev.status] ?? 0)) byId.set(c.id, c);
  }
  return [...byId.values()];
}

function oneLine(s) {
  return String(s ?? '').replace(/\s+/g, ' ').slice(0, 300);
}
