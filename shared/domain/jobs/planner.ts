/**
 * The capability planner: from a preset or an explicit list, the ordered stages of a job. A chosen
 * capability that cannot work on the inputs as given pulls in the capability that supplies what it
 * needs (REQUIREMENTS), and the job's `warnings` say so. Pure: unit-tested as a table.
 */
import { ValidationError } from '#shared/domain/errors';
import { CAPABILITIES, CAPABILITY_NAMES, PRESETS, type Capability, type Preset } from './capabilities';

/** What the planner needs to know about the inputs. */
export interface InputFacts {
  companies: number;
  contacts: number;
  contactsWithoutEmail: number;
  contactsWithLinkedin: number;
  icpGate: 'skip' | 'apply';
  hasIcpCriteria: boolean;
}

interface Requirement {
  capability: Capability;
  needs: Capability;
  when: (facts: InputFacts) => boolean;
  why: string;
}

const REQUIREMENTS: Requirement[] = [
  {
    capability: 'email_verify',
    needs: 'email_lookup',
    when: (f) => f.contacts === 0 || f.contactsWithoutEmail > 0,
    why: 'email_verify checks addresses; email_lookup was added to find them for contacts that have none',
  },
  {
    capability: 'email_lookup',
    needs: 'contact_discovery',
    when: (f) => f.contacts === 0,
    why: 'email_lookup works on contacts; contact_discovery was added to find them at the supplied companies',
  },
  {
    capability: 'linkedin_enrich',
    needs: 'contact_discovery',
    when: (f) => f.contacts === 0,
    why: 'linkedin_enrich works on contacts; contact_discovery was added to find them at the supplied companies',
  },
];

/** Conditions that add a stage whatever was chosen. */
const OPTION_REQUIREMENTS: { needs: Capability; when: (f: InputFacts) => boolean; why: string }[] = [
  {
    needs: 'qualification',
    when: (f) => f.icpGate === 'apply',
    why: 'icp_gate "apply" drops unqualified companies; qualification was added to score them',
  },
];

/** Notes that change nothing but tell the caller what to expect. */
const NOTES: { when: (f: InputFacts, stages: Set<Capability>) => boolean; note: string }[] = [
  {
    when: (f, s) => f.companies > 0 && s.size > 1 && ![...s].some((c) => CAPABILITIES[c].scope === 'company'),
    note: 'input_assets.companies is not used by the chosen capabilities',
  },
  {
    when: (f, s) => f.contacts > 0 && s.size > 1 && ![...s].some((c) => CAPABILITIES[c].scope === 'contact'),
    note: 'input_assets.contacts is not used by the chosen capabilities',
  },
  {
    when: (f, s) => s.has('linkedin_enrich') && f.contactsWithLinkedin === 0 && !s.has('contact_discovery'),
    note: 'no contact has a linkedin_url, so linkedin_enrich has nothing to enrich',
  },
  {
    when: (f) => f.icpGate === 'apply' && !f.hasIcpCriteria,
    note: 'icp_gate "apply" without icp_config criteria or a niche: every company qualifies',
  },
];

export interface JobPlan {
  preset: Preset | 'custom';
  /** Pipeline order, deliverable_finalize last. */
  capabilities: Capability[];
  warnings: string[];
}

export function planJob(choice: { preset?: Preset; capabilities?: Capability[] }, facts: InputFacts): JobPlan {
  if ((choice.preset === undefined) === (choice.capabilities === undefined)) {
    throw new ValidationError('Send either preset or requested_capabilities, not both and not neither.', [
      { path: 'body', message: 'preset xor requested_capabilities' },
    ]);
  }
  if (facts.companies === 0 && facts.contacts === 0) {
    throw new ValidationError('input_assets needs at least one company or contact.', [
      { path: 'input_assets', message: 'No companies or contacts' },
    ]);
  }
  const chosen = new Set<Capability>(choice.preset ? PRESETS[choice.preset] : choice.capabilities);
  const warnings: string[] = [];
  const add = (capability: Capability, why: string) => {
    if (chosen.has(capability)) return;
    chosen.add(capability);
    warnings.push(why);
  };
  for (const rule of OPTION_REQUIREMENTS) if (rule.when(facts)) add(rule.needs, rule.why);
  // Requirements chain (email_verify → email_lookup → contact_discovery): apply until nothing changes.
  for (let changed = true; changed; ) {
    changed = false;
    for (const rule of REQUIREMENTS) {
      if (chosen.has(rule.capability) && !chosen.has(rule.needs) && rule.when(facts)) {
        add(rule.needs, rule.why);
        changed = true;
      }
    }
  }
  chosen.add('deliverable_finalize');

  const needsCompanies = [...chosen].filter((c) => CAPABILITIES[c].scope === 'company');
  if (needsCompanies.length > 0 && facts.companies === 0) {
    throw new ValidationError(`${needsCompanies.join(', ')} work on companies, and input_assets.companies is empty.`, [
      { path: 'input_assets.companies', message: `Required by ${needsCompanies.join(', ')}` },
    ]);
  }
  for (const note of NOTES) if (note.when(facts, chosen)) warnings.push(note.note);
  return {
    preset: choice.preset ?? 'custom',
    capabilities: CAPABILITY_NAMES.filter((c) => chosen.has(c)),
    warnings,
  };
}
