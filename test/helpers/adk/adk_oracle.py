"""ADK's own answers for Assay's tests: one JSON request on stdin, one JSON answer on stdout.

Run with .tools/adk-venv/bin/python (scripts/provision.sh test installs the pinned google-adk there).

  {"command": "trajectory", "pairs": [{"expected": [{"name", "args"}], "actual": [...], "match_type": "EXACT"}]}
    -> {"verdicts": [{"score": 1.0, "passed": true}]}, by ADK's TrajectoryEvaluator at threshold 1.0
  {"command": "validate_eval_set", "json": "<text>"}
    -> {"ok": true, "dumped": {...}} or {"ok": false, "error": "..."}, by ADK's EvalSet pydantic model
  {"command": "convert_legacy", "json": "<text>", "name": "<case or set name>"}
    -> {"dumped": {...}}: an old .test.json list as AgentEvaluator.migrate_eval_data_to_new_schema converts it (one
       case named `name`), or a pre-EvalSet `adk web` list as convert_eval_set_to_pydantic_schema does
  {"command": "rouge1", "pairs": [{"reference": "...", "candidate": "..."}]}
    -> {"scores": [0.5]}: the ROUGE-1 F-measure of each pair, by final_response_match_v1's own scoring function
  {"command": "batch", "requests": [<request>, ...]} -> {"answers": [<answer>, ...]}: many requests, one python
"""

import contextlib
import json
import sys

from google.adk.evaluation.eval_case import IntermediateData, Invocation
from google.adk.evaluation.eval_metrics import EvalMetric, ToolTrajectoryCriterion
from google.adk.evaluation.eval_set import EvalSet
from google.adk.evaluation.final_response_match_v1 import _calculate_rouge_1_scores
from google.adk.evaluation.evaluator import EvalStatus
from google.adk.evaluation.local_eval_sets_manager import convert_eval_set_to_pydantic_schema
from google.adk.evaluation.trajectory_evaluator import TrajectoryEvaluator
from google.genai import types as genai_types
from pydantic import ValidationError


def invocation(calls):
  tool_uses = [genai_types.FunctionCall(name=c["name"], args=c["args"]) for c in calls]
  return Invocation(
      user_content=genai_types.Content(role="user", parts=[genai_types.Part(text="q")]),
      intermediate_data=IntermediateData(tool_uses=tool_uses),
  )


def evaluator(match_type):
  criterion = ToolTrajectoryCriterion(
      threshold=1.0, match_type=ToolTrajectoryCriterion.MatchType[match_type]
  )
  return TrajectoryEvaluator(
      eval_metric=EvalMetric(metric_name="tool_trajectory_avg_score", criterion=criterion)
  )


def trajectory(request):
  evaluators = {}
  verdicts = []
  for pair in request["pairs"]:
    match_type = pair["match_type"]
    if match_type not in evaluators:
      evaluators[match_type] = evaluator(match_type)
    result = evaluators[match_type].evaluate_invocations(
        actual_invocations=[invocation(pair["actual"])],
        expected_invocations=[invocation(pair["expected"])],
    )
    one = result.per_invocation_results[0]
    verdicts.append({"score": one.score, "passed": one.eval_status == EvalStatus.PASSED})
  return {"verdicts": verdicts}


def validate_eval_set(request):
  try:
    eval_set = EvalSet.model_validate_json(request["json"])
  except ValidationError as error:
    return {"ok": False, "error": str(error)}
  return {"ok": True, "dumped": eval_set.model_dump(mode="json", by_alias=False, exclude_none=True)}


def convert_legacy(request):
  data = json.loads(request["json"])
  name = request["name"]
  # As AgentEvaluator._get_eval_set_from_old_format: the whole list of queries is the data of one case.
  if all("query" in item for item in data):
    data = [{"name": name, "data": data, "initial_session": {}}]
  eval_set = convert_eval_set_to_pydantic_schema(eval_set_id=name, eval_set_in_json_format=data)
  return {"dumped": eval_set.model_dump(mode="json", by_alias=False, exclude_none=True)}


def rouge1(request):
  # RougeEvaluator's per-invocation score: _calculate_rouge_1_scores(response, reference).fmeasure.
  return {
      "scores": [
          _calculate_rouge_1_scores(pair["candidate"], pair["reference"]).fmeasure
          for pair in request["pairs"]
      ]
  }


def batch(request):
  return {"answers": [COMMANDS[one["command"]](one) for one in request["requests"]]}


COMMANDS = {
    "trajectory": trajectory,
    "validate_eval_set": validate_eval_set,
    "convert_legacy": convert_legacy,
    "rouge1": rouge1,
    "batch": batch,
}


def main():
  request = json.load(sys.stdin)
  command = COMMANDS.get(request.get("command"))
  if command is None:
    sys.exit(f"unknown command {request.get('command')!r}; known: {sorted(COMMANDS)}")
  # Whatever ADK prints goes to stderr, so stdout carries the one answer only.
  with contextlib.redirect_stdout(sys.stderr):
    answer = command(request)
  json.dump(answer, sys.stdout)


if __name__ == "__main__":
  main()
