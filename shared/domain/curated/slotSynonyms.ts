/**
 * Everyday words for the taxonomy, as explicit slot values say them ("developer", "solidity dev",
 * "designer", "marketer"). The taxonomy's own synonyms (taxonomy.ts) name one term each;
 * this table adds the words people type into a slot, and a word here may name several terms at
 * once: "developer" is every kind of engineering builder. Case, plurals, hyphens and spaces are
 * handled by the matcher (shared/domain/intelligence/termMatch.ts), so one spelling per entry is
 * enough ("solidity dev" also covers "Solidity-Devs").
 *
 * A slot that holds one value (sector, stage, ecosystem, platform, ...) treats a word naming several
 * terms as ambiguous and asks which one; a slot that holds several (builder category, role) takes
 * them all.
 */
import type {
  BuilderCategoryId,
  EcosystemId,
  FundTypeId,
  JurisdictionId,
  PlatformId,
  RoleFamilyId,
  SectorId,
  StageId,
} from './taxonomy';

export type SynonymTable<Id extends string> = readonly (readonly [phrase: string, ids: readonly Id[]])[];

/** Every kind of builder who writes code (not founders, devrel or auditors). */
const ENGINEERS: readonly BuilderCategoryId[] = [
  'smart-contract-engineer',
  'protocol-engineer',
  'full-stack-dapp',
  'zk-engineer',
  'data-engineer',
];

export const BUILDER_CATEGORY_SYNONYMS: SynonymTable<BuilderCategoryId> = [
  ['developer', ENGINEERS],
  ['dev', ENGINEERS],
  ['engineer', ENGINEERS],
  ['software engineer', ENGINEERS],
  ['software developer', ENGINEERS],
  ['programmer', ENGINEERS],
  ['coder', ENGINEERS],
  ['builder', ENGINEERS],
  ['blockchain developer', ['smart-contract-engineer', 'protocol-engineer']],
  ['blockchain engineer', ['smart-contract-engineer', 'protocol-engineer']],
  ['rust developer', ['smart-contract-engineer', 'protocol-engineer']],
  ['solidity', ['smart-contract-engineer']],
  ['solidity dev', ['smart-contract-engineer']],
  ['solidity engineer', ['smart-contract-engineer']],
  ['smart contract dev', ['smart-contract-engineer']],
  ['smart contracts', ['smart-contract-engineer']],
  ['evm developer', ['smart-contract-engineer']],
  ['move developer', ['smart-contract-engineer']],
  ['protocol dev', ['protocol-engineer']],
  ['core engineer', ['protocol-engineer']],
  ['node engineer', ['protocol-engineer']],
  ['infrastructure engineer', ['protocol-engineer']],
  ['backend developer', ['protocol-engineer', 'full-stack-dapp']],
  ['backend engineer', ['protocol-engineer', 'full-stack-dapp']],
  ['frontend engineer', ['full-stack-dapp']],
  ['front end developer', ['full-stack-dapp']],
  ['web developer', ['full-stack-dapp']],
  ['react developer', ['full-stack-dapp']],
  ['fullstack developer', ['full-stack-dapp']],
  // Designers of dApps build their interfaces: the full-stack dApp builders are the closest type.
  ['designer', ['full-stack-dapp']],
  ['ux designer', ['full-stack-dapp']],
  ['ui designer', ['full-stack-dapp']],
  ['ui/ux', ['full-stack-dapp']],
  ['product designer', ['full-stack-dapp']],
  ['zk', ['zk-engineer']],
  ['zero knowledge engineer', ['zk-engineer']],
  ['circuit developer', ['zk-engineer']],
  ['cryptographer', ['zk-engineer']],
  ['security engineer', ['security-researcher']],
  ['smart contract auditor', ['security-researcher']],
  ['bug bounty hunter', ['security-researcher']],
  ['pentester', ['security-researcher']],
  ['data analyst', ['data-engineer']],
  ['data scientist', ['data-engineer']],
  ['analytics engineer', ['data-engineer']],
  ['co-founder', ['founder']],
  ['entrepreneur', ['founder']],
  // Builders who market to developers are developer relations: the builder type closest to a marketer.
  ['marketer', ['devrel']],
  ['developer marketing', ['devrel']],
  ['evangelist', ['devrel']],
  ['community manager', ['devrel']],
];

export const ROLE_FAMILY_SYNONYMS: SynonymTable<RoleFamilyId> = [
  ['dev', ['engineering']],
  ['software engineer', ['engineering']],
  ['programmer', ['engineering']],
  ['solidity dev', ['engineering']],
  ['designer', ['product']],
  ['ux', ['product']],
  ['ui/ux', ['product']],
  ['marketer', ['marketing']],
  ['growth marketer', ['marketing']],
  ['head of growth', ['marketing']],
  ['business developer', ['bd']],
  ['bizdev', ['bd']],
  ['executive', ['leadership']],
  ['vc', ['investment']],
  ['investor', ['investment']],
  // "Team" in a role slot is everyone who builds the product.
  ['technical team', ['engineering', 'product']],
];

export const SECTOR_SYNONYMS: SynonymTable<SectorId> = [
  ['decentralized exchange', ['defi']],
  ['lending protocol', ['defi']],
  ['fintech', ['payments']],
  ['tokenized assets', ['rwa']],
  ['ml', ['ai']],
  ['crypto ai', ['ai']],
  ['web3 social', ['social']],
  ['nft marketplace', ['nft']],
  ['web3 games', ['gaming']],
  ['zk rollup', ['layer2', 'privacy']],
];

export const STAGE_SYNONYMS: SynonymTable<StageId> = [
  ['angel', ['pre-seed']],
  ['series a round', ['series-a']],
  ['series c+', ['series-b-plus']],
  ['later stage', ['series-b-plus']],
  ['early stage', ['pre-seed', 'seed']],
];

export const ECOSYSTEM_SYNONYMS: SynonymTable<EcosystemId> = [
  ['ether', ['ethereum']],
  ['ethereum mainnet', ['ethereum']],
  ['op mainnet', ['optimism']],
  ['arbitrum one', ['arbitrum']],
  ['cosmos hub', ['cosmos']],
  ['ethereum l2', ['arbitrum', 'optimism', 'base', 'starknet', 'polygon']],
  ['move', ['sui', 'aptos']],
];

export const PLATFORM_SYNONYMS: SynonymTable<PlatformId> = [
  ['tweet', ['x']],
  ['x/twitter', ['x']],
  ['yt', ['youtube']],
  ['telegram group', ['telegram']],
  ['social media', ['x', 'youtube', 'telegram', 'farcaster']],
];

export const FUND_TYPE_SYNONYMS: SynonymTable<FundTypeId> = [
  ['venture', ['vc']],
  ['venture capitalist', ['vc']],
];

export const JURISDICTION_SYNONYMS: SynonymTable<JurisdictionId> = [['united states of america', ['united-states']]];

/**
 * Words that qualify a slot value without changing which term it names ("senior solidity dev",
 * "web3 marketers", "DeFi and gaming"). A value made only of these names nothing.
 */
export const FILLER_WORDS: readonly string[] = [
  'a',
  'an',
  'the',
  'of',
  'in',
  'on',
  'for',
  'with',
  'and',
  'or',
  'who',
  'that',
  'some',
  'any',
  'good',
  'top',
  'best',
  'senior',
  'junior',
  'lead',
  'principal',
  'staff',
  'experienced',
  'web3',
  'crypto',
  'blockchain',
  'onchain',
  'ecosystem',
  'people',
  'person',
  'team',
  'focused',
  'native',
];
