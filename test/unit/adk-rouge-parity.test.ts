import assert from 'node:assert/strict';
import { rougeOne } from '../../domain/scoring/response-match';
import { ADK_PYTHON, adkRougeOne, adkVenvExists } from '../helpers/adk-oracle';
import { rougePairs } from '../helpers/rouge-pairs';

const SEED = 22;
const PAIRS = 600;
const TOLERANCE = 1e-9;

describe("ADK parity: response_match_score (ROUGE-1 F-measure, ADK's final_response_match_v1)", () => {
  before(() => assert.ok(adkVenvExists(), `${ADK_PYTHON} is missing: \`bash scripts/provision.sh test\` installs it`));

  it("scores every generated pair as ADK's own scorer does, to 1e-9", async () => {
    const pairs = rougePairs(SEED, PAIRS);
    const adk = await adkRougeOne(pairs);
    assert.equal(adk.length, pairs.length);
    const disagreements = pairs.flatMap((pair, k) => {
      const assay = rougeOne(pair.reference, pair.candidate).fmeasure;
      return Math.abs(assay - adk[k]) <= TOLERANCE ? [] : [JSON.stringify({ ...pair, assay, adk: adk[k] })];
    });
    assert.equal(
      disagreements.length,
      0,
      `seed ${SEED}: ${disagreements.length} of ${pairs.length} scores differ, for instance\n${disagreements.slice(0, 5).join('\n')}`,
    );
    // Zero, partial and full scores must all be common, or the comparison says little.
    const [zero, partial, full] = [
      adk.filter((s) => s === 0),
      adk.filter((s) => s > 0 && s < 1),
      adk.filter((s) => s === 1),
    ];
    for (const [name, scores] of Object.entries({ zero, partial, full }))
      assert.ok(scores.length > PAIRS / 20, `${name}: ${scores.length} of ${PAIRS}`);
  });
});
