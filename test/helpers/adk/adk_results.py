"""Writes real ADK eval results (`*.evalset_result.json`) with ADK's own code, in both encodings.

Reads one JSON request on stdin:
  {"app": str, "eval_set": <an ADK EvalSet>, "actual": {<eval_id>: [<Invocation>]}, "config": <an ADK EvalConfig>,
   "out_dir": str}
Scores each case's actual invocations against the set's with ADK's own evaluators (`tool_trajectory_avg_score`,
`response_match_score` at the config's thresholds, and ADK's informational `tool_call_count_v1`), builds each
EvalCaseResult with the final status as LocalEvalService._generate_final_eval_status decides it (LocalEvalService
itself cannot be imported here: its metric registry needs pandas, an extra this venv lacks), and saves the
EvalSetResult with ADK's LocalEvalSetResultsManager (the current encoding: the document). Then writes the same
EvalSetResult as ADK 1.x's LocalEvalSetResultsManager did before its double encoding was fixed:
`json.dump(eval_set_result.model_dump_json(), f, indent=2)` (a JSON string of the document).
Answers on stdout: {"current": path, "legacy": path, "verdicts": {<eval_id>: {"final": str, "metrics": {name: str}}}}.
"""

import json
import os
import sys

from google.adk.evaluation._efficiency_evaluators import _ToolCallCountV1Evaluator
from google.adk.evaluation.eval_case import Invocation
from google.adk.evaluation.eval_metrics import EvalMetric
from google.adk.evaluation.eval_metrics import EvalMetricResult
from google.adk.evaluation.eval_metrics import EvalMetricResultPerInvocation
from google.adk.evaluation.eval_metrics import EvalStatus
from google.adk.evaluation.eval_result import EvalCaseResult
from google.adk.evaluation.eval_set import EvalSet
from google.adk.evaluation.final_response_match_v1 import RougeEvaluator
from google.adk.evaluation.local_eval_set_results_manager import LocalEvalSetResultsManager
from google.adk.evaluation.trajectory_evaluator import TrajectoryEvaluator


def evaluators(criteria: dict[str, float]):
  trajectory = EvalMetric(metric_name="tool_trajectory_avg_score", threshold=criteria["tool_trajectory_avg_score"])
  rouge = EvalMetric(metric_name="response_match_score", threshold=criteria["response_match_score"])
  return [
      (trajectory, TrajectoryEvaluator(eval_metric=trajectory)),
      (rouge, RougeEvaluator(eval_metric=rouge)),
      (EvalMetric(metric_name="tool_call_count_v1"), _ToolCallCountV1Evaluator()),
  ]


# LocalEvalService._generate_final_eval_status, as ADK 2.13 writes it.
def final_status(results: list[EvalMetricResult]) -> EvalStatus:
  status = EvalStatus.NOT_EVALUATED
  for result in results:
    if result.eval_status == EvalStatus.PASSED:
      status = EvalStatus.PASSED
    elif result.eval_status == EvalStatus.FAILED:
      return EvalStatus.FAILED
  return status


def case_result(set_id: str, case, actual: list[Invocation], criteria: dict[str, float]) -> EvalCaseResult:
  overall, per_invocation = [], [
      EvalMetricResultPerInvocation(actual_invocation=a, expected_invocation=e, eval_metric_results=[])
      for a, e in zip(actual, case.conversation)
  ]
  for metric, evaluator in evaluators(criteria):
    scored = evaluator.evaluate_invocations(actual, case.conversation)
    overall.append(
        EvalMetricResult(
            metric_name=metric.metric_name,
            threshold=metric.threshold,
            score=scored.overall_score,
            eval_status=scored.overall_eval_status,
        )
    )
    for row, result in zip(per_invocation, scored.per_invocation_results):
      row.eval_metric_results.append(
          EvalMetricResult(
              metric_name=metric.metric_name,
              threshold=metric.threshold,
              score=result.score,
              eval_status=result.eval_status,
          )
      )
  return EvalCaseResult(
      eval_set_id=set_id,
      eval_id=case.eval_id,
      final_eval_status=final_status(overall),
      overall_eval_metric_results=overall,
      eval_metric_result_per_invocation=per_invocation,
      session_id=f"session-{case.eval_id}",
      user_id="user",
  )


def main() -> None:
  request = json.loads(sys.stdin.read())
  app = request["app"]
  eval_set = EvalSet.model_validate(request["eval_set"])
  criteria = request["config"]["criteria"]
  cases = [
      case_result(
          eval_set.eval_set_id,
          case,
          [Invocation.model_validate(i) for i in request["actual"][case.eval_id]],
          criteria,
      )
      for case in eval_set.eval_cases
  ]
  results = LocalEvalSetResultsManager(request["out_dir"])
  results.save_eval_set_result(app, eval_set.eval_set_id, cases)
  [name] = results.list_eval_set_results(app)
  current = os.path.join(request["out_dir"], app, ".adk", "eval_history", name + ".evalset_result.json")
  result = results.get_eval_set_result(app, name)
  legacy = os.path.join(request["out_dir"], "legacy.evalset_result.json")
  with open(legacy, "w", encoding="utf-8") as f:
    json.dump(result.model_dump_json(), f, indent=2)
  verdicts = {
      case.eval_id: {
          "final": case.final_eval_status.name,
          "metrics": {m.metric_name: m.eval_status.name for m in case.overall_eval_metric_results},
      }
      for case in result.eval_case_results
  }
  print(json.dumps({"current": current, "legacy": legacy, "verdicts": verdicts}))


main()
