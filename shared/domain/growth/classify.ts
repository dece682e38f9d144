/**
 * Which goal a request is after: the cues of each goal (goals.ts) scored against the goal text
 * and the niche, plus what the inputs look like. Pure.
 */
import { GOALS, type GoalDefinition, type GoalType } from './goals';
import type { NormalizedAssets } from './normalize';

export interface ClassificationInput {
  goalText: string;
  niche?: string;
  assets: NormalizedAssets;
}

type InputShape = GoalDefinition['inputCues'][number]['when'];

function inputShapes({ assets, niche }: ClassificationInput): Set<InputShape> {
  const shapes = new Set<InputShape>();
  const withEmail = assets.contacts.filter((c) => c.email).length;
  if (assets.contacts.length > 0 && withEmail === assets.contacts.length) shapes.add('contacts_with_email');
  if (assets.contacts.length > 0 && withEmail < assets.contacts.length) shapes.add('contacts_without_email');
  if (assets.companies.length > 0 && assets.contacts.length === 0) shapes.add('companies_only');
  if (assets.companies.length === 0 && assets.contacts.length === 0 && niche) shapes.add('no_inputs_with_niche');
  return shapes;
}

/** When nothing in the words decides, the inputs do. */
function byInputsAlone(assets: NormalizedAssets): GoalType {
  if (assets.contacts.length > 0)
    return assets.contacts.every((c) => c.email) ? 'email_verification' : 'contact_enrichment';
  if (assets.companies.length > 0) return 'email_discovery';
  return 'lead_generation';
}

export function scoreGoals(input: ClassificationInput): { goal: GoalType; score: number }[] {
  const words = `${input.goalText} ${input.niche ?? ''}`.toLowerCase();
  const shapes = inputShapes(input);
  return GOALS.map((g) => ({
    goal: g.goal,
    score:
      g.cues.reduce((sum, cue) => sum + (cue.pattern.test(words) ? cue.weight : 0), 0) +
      g.inputCues.reduce((sum, cue) => sum + (shapes.has(cue.when) ? cue.weight : 0), 0),
  }));
}

/** The best-scoring goal; ties go to the goal listed first in GOALS. */
export function classifyGoal(input: ClassificationInput): GoalType {
  const scores = scoreGoals(input);
  const best = scores.reduce((a, b) => (b.score > a.score ? b : a));
  return best.score > 0 ? best.goal : byInputsAlone(input.assets);
}
