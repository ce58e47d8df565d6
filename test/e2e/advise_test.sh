#!/usr/bin/env bash
# advise -> export-config -> report, end to end on two examples (issue: advisor): the advice's
# files are there and complete, export-config turns its answer into YAML that parses back
# (python3's yaml module is not assumed: the documents are checked by slicewise's own reader in the
# unit tests; here every file is non-empty and names what it must), and the answer's result makes
# an ROI report; an interrupted advise writes nothing.
# Usage: advise_test.sh SLICEWISE_EXE SOURCE_DIR
set -euo pipefail
exe=$1
src=$2
cd "$src"
work=$(mktemp -d /tmp/sw-advise-test-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# The mixed H100 fleet (AWS), every strategy and GPU: time-slicing on L40S wins.
"$exe" advise examples/mixed-mig-h100.json --out "$work/mixed" --progress none --jobs 2 > "$work/mixed.out"
for f in advice.json advice.md candidates.csv pareto.csv pareto.svg result.json; do
  [ -s "$work/mixed/$f" ] || fail "advise wrote no $f"
done
grep -q '^answer:   time_slicing on L40S' "$work/mixed.out" || fail "mixed answer: $(cat "$work/mixed.out")"
tail -c 7 "$work/mixed/pareto.svg" | grep -q '</svg>' || fail "pareto.svg is cut short"
"$exe" export-config "$work/mixed" --out "$work/mixed-deploy" > /dev/null
grep -q 'timeSlicing:' "$work/mixed-deploy/device-plugin-config.yaml" || fail "no time-slicing in the device-plugin config"
grep -q 'nvidia.com/gpu: 1' "$work/mixed-deploy/deployments.yaml" || fail "no GPU request in the Deployments"
"$exe" report "$work/mixed/result.json" --out "$work/mixed-report.md" > /dev/null
grep -q 'Recommended strategy: time_slicing' "$work/mixed-report.md" || fail "the answer's report does not lead with it"

# The seed: the two LLM servers' bandwidth-bound decode steps share one L40S too slowly for the
# 8B model's 2 s target, so nothing shared wins; a fleet of two GPU types does: Phi-3.5 on an A10G,
# DeepSeek (which no A10G holds) in a pool on its L40S. Exported, each pod is pinned to its GPU's node.
"$exe" advise examples/seed-l40s-timeslicing.json --out "$work/seed" --progress none > "$work/seed.out"
grep -q '^answer:   dedicated on A10G; pools: deepseek-r1-distill-llama-8b on 1 L40S' "$work/seed.out" ||
  fail "seed answer: $(cat "$work/seed.out")"
"$exe" export-config "$work/seed" --out "$work/seed-deploy" > /dev/null
[ "$(grep -c 'slicewise.io/gpu: gpu' "$work/seed-deploy/deployments.yaml")" -eq 2 ] ||
  fail "the seed's pods are not pinned to their GPUs' nodes"
grep -q 'gpu0 A10G, gpu1 L40S' "$work/seed-deploy/README.md" || fail "the README does not say which node has which GPU"

# Thirteen tenants, one a 70B model no GPU holds alone: a fleet of L40S time-sliced, the 70B model in
# a pool of four L40S of one instance; exported, its pods ask for the group's GPUs on their node.
"$exe" advise examples/fleet-13-tenants.json --out "$work/fleet" --progress none --jobs 2 > "$work/fleet.out"
grep -q '^answer:   time_slicing on L40S; pools: llm-70b on 4 L40S' "$work/fleet.out" ||
  fail "13-tenant answer: $(cat "$work/fleet.out")"
"$exe" export-config "$work/fleet" --out "$work/fleet-deploy" > /dev/null
grep -q 'nvidia.com/gpu: 4' "$work/fleet-deploy/deployments.yaml" || fail "the 70B pods do not ask for their 4 GPUs"
grep -q 'in a pool reserved for llm-70b' "$work/fleet-deploy/README.md" || fail "the README does not name the pool"

# The ten light jobs on A100-80GB, MIG only: a mig-parted config and MIG resource requests.
"$exe" advise examples/ten-light-jobs-a100.json --out "$work/ten" --strategies mig --gpus A100-80GB --jobs 2 \
  --progress none > "$work/ten.out"
grep -q '^answer:   mig ' "$work/ten.out" || fail "ten-light answer: $(cat "$work/ten.out")"
"$exe" export-config "$work/ten" --out "$work/ten-deploy" > /dev/null
grep -q 'mig-enabled: true' "$work/ten-deploy/mig-parted-config.yaml" || fail "no mig-parted config"
grep -q 'nvidia.com/mig-' "$work/ten-deploy/deployments.yaml" || fail "no MIG resource requests"
grep -q 'nvidia.com/mig.config=slicewise' "$work/ten-deploy/README.md" || fail "README lacks the node label"

# SIGINT in the middle of a search: exit 130, nothing written.
"$exe" advise examples/ten-light-jobs-a100.json --out "$work/stopped" --jobs 2 --progress none > /dev/null 2>&1 &
pid=$!
sleep 2
kill -INT "$pid"
set +e
wait "$pid"
code=$?
set -e
[ "$code" -eq 130 ] || fail "interrupted advise exited $code, expected 130"
[ ! -e "$work/stopped" ] || fail "an interrupted advise wrote $(ls "$work/stopped")"
echo "advise_test: ok"
