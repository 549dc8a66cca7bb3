import './alloc-meter-install.js'; // before glTF Transform loads (see the file)
/** What scripts/fuzz.mjs bundles: the campaign, the sweep, the minimiser and the target table. */
export { CAMPAIGN_CADENCE, makeInput, mergeStats, runCampaign, truncationSweep, type CampaignResult, type TargetStats, type Violation } from './campaign.js';
export { minimize } from './minimize.js';
export { TARGETS } from './targets.js';
export { memoryLimit, timeLimitMs } from './bounds.js';
export { makeGltfInput, runGltfCampaign } from './gltf-target.js';
export { makeHostileGltfInput, runHostileGltfCampaign } from './gltf-hostile.js';
export { COVERAGE_TARGETS, CORPUS_DIR, coverageSeeds, keepCorpus, keptCorpus, runCoverage, trimKept } from './coverage.js';
export { bundleFilter } from './coverage-meter.js';
export { checkGrammarInput, GRAMMAR_KINDS, makeGrammarInput, runGrammarCampaign } from './grammar.js';
export { checkWriterInput, makeWriterInput, runWriterCampaign } from './gltf-writers.js';
export { WRITER_FORMATS } from './gltf-writers.js';
export { checkBatchInput, makeBatchInput, runBatchCampaign } from './batch-member.js';
