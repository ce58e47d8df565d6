// The files of a distributed sweep (cli/sweep_emit.hpp, docs/distributed.md).
#include "cli/sweep_emit.hpp"

#include <algorithm>

#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

#include "core/spell.hpp"
#include "report/k8s_text.hpp"

namespace slicewise::cli {

namespace {

constexpr const char* kShardsMount = "/data";

// A name in a header comment goes through one_line() (core/spell.hpp): a line break there, U+2028
// included (YAML ends a line at it), would end the comment and run the rest as shell or YAML.

std::string header_comment(const DistributedJob& job, const std::string& comment) {
  return comment + " Written by `" + one_line(job.emitted_by) + "`.\n" + comment + " Sweep \"" +
         one_line(job.sweep_name) + "\": " + std::to_string(job.num_points) + " points in " +
         std::to_string(job.shards) + " shards.\n";
}

/// The shard folders, as the merge job names them: each explicitly, so that a shard that never
/// ran is named in the merge's error rather than silently missing from a glob. `parent` is a
/// folder that exists when a shard starts, or an emitted job's shards/ (create_sweep_folder).
std::vector<std::string> shard_folders(const std::string& parent, int shards) {
  std::vector<std::string> folders;
  folders.reserve(static_cast<std::size_t>(std::max(shards, 0)));
  for (int i = 0; i < shards; ++i) folders.push_back(parent + "/shard-" + std::to_string(i));
  return folders;
}

std::string job_json(const DistributedJob& job) {
  const nlohmann::json document = {{"schema_version", 1},
                                   {"kind", "slicewise-distributed-sweep"},
                                   {"engine", job.engine == JobEngine::slurm ? "slurm" : "k8s"},
                                   {"sweep", job.sweep_name},
                                   {"fingerprint", job.fingerprint},
                                   {"num_points", job.num_points},
                                   {"shards", job.shards}};
  return document.dump(1) + "\n";
}

// --- Slurm -------------------------------------------------------------------------------------

/// The lines every Slurm script starts its body with: strict shell, the executable and the folder.
std::string slurm_prelude(const DistributedJob& job) {
  return "set -euo pipefail\n"
         "slicewise=${SLICEWISE:-" +
         shell_quote(job.slicewise) + "}\njob=" + shell_quote(job.folder) + "\n";
}

std::string slurm_array_script(const DistributedJob& job) {
  const std::string jobs = std::to_string(job.jobs);
  std::string s = "#!/bin/bash\n" + header_comment(job, "#") +
                  "# One shard per array task (SLURM_ARRAY_TASK_ID is the 0-based shard index). Each task runs\n"
                  "# with --resume: a task that is requeued or submitted again keeps the points its shard already\n"
                  "# finished and runs the rest. Submit with submit.sh, which adds the merge job.\n"
                  "#SBATCH --job-name=" +
                  job_base_name(job.sweep_name) + "\n#SBATCH --array=0-" + std::to_string(job.shards - 1) +
                  "\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=" + jobs + "\n#SBATCH --requeue\n" +
                  slurm_prelude(job);
  s += "exec \"$slicewise\" sweep " + shell_quote(job.sweep_file) +
       " --out \"$job/shards/shard-$SLURM_ARRAY_TASK_ID\" \\\n  --shards " + std::to_string(job.shards) +
       " --shard-index \"$SLURM_ARRAY_TASK_ID\" --resume --jobs \"${SLURM_CPUS_PER_TASK:-" + jobs +
       "}\" --progress none\n";
  return s;
}

std::string slurm_merge_script(const DistributedJob& job) {
  std::string s = "#!/bin/bash\n" + header_comment(job, "#") +
                  "# Joins the shards into merged/ (results.csv, results.json, junit.xml) and applies the gates:\n"
                  "# exit 1 when a point failed or is missing, 3 when a gate trips. submit.sh runs it after every\n"
                  "# shard has ended, finished or not (afterany), so that a missing shard is reported.\n"
                  "#SBATCH --job-name=" +
                  job_base_name(job.sweep_name) + "-merge\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n" +
                  slurm_prelude(job);
  s += "exec \"$slicewise\" merge";
  for (const auto& folder : shard_folders("$job/shards", job.shards)) s += " \\\n  \"" + folder + "\"";
  s += " \\\n  --out \"$job/merged\"";
  for (const auto& gate : job.fail_if) s += " \\\n  --fail-if " + shell_quote(gate);
  return s + "\n";
}

std::string slurm_submit_script(const DistributedJob& job) {
  std::string s = "#!/bin/sh\n" + header_comment(job, "#") +
                  "# Submits the shards as a job array and the merge job after it. Options pass through to both\n"
                  "# sbatch calls, e.g.: submit.sh --partition=cpu --time=02:00:00 --account=platform\n"
                  "set -eu\njob=" +
                  shell_quote(job.folder) + "\nmkdir -p \"$job/logs\"\n";
  // sbatch reads % in --output as a pattern (%a: the task); a % of the folder's own is written %%.
  std::string logs;
  for (const char c : job.folder + "/logs") logs += c == '%' ? std::string("%%") : std::string(1, c);
  s += "logs=" + shell_quote(logs) + "\n";
  s += "array=$(sbatch --parsable --output=\"$logs/shard-%a.log\" --open-mode=append \"$@\" \"$job/sweep.sbatch\")\n"
       "array=${array%%;*}\n"
       "merge=$(sbatch --parsable --dependency=\"afterany:$array\" --kill-on-invalid-dep=yes \\\n"
       "  --output=\"$logs/merge.log\" --open-mode=append \"$@\" \"$job/merge.sbatch\")\n"
       "merge=${merge%%;*}\n"
       "echo \"submitted: shards as job array $array (" +
       std::to_string(job.shards) +
       " tasks), merge as job $merge\"\n"
       "echo \"results: $job/merged/results.csv; logs: $job/logs/\"\n";
  return s;
}

// --- Kubernetes --------------------------------------------------------------------------------

/// A string scalar that must stay a string ("4" in a container's args is a string; plain, YAML
/// reads it as a number and the API server refuses it): tagged "!", written double-quoted.
YAML::Node quoted(const std::string& text) {
  YAML::Node n(text);
  n.SetTag("!");
  return n;
}

/// `text` as a container argument that Kubernetes passes unchanged: it expands $(VAR) in args,
/// and $$ is its escape for a literal $.
std::string k8s_literal(const std::string& text) {
  std::string out;
  for (const char c : text) out += c == '$' ? std::string("$$") : std::string(1, c);
  return out;
}

/// Writes `node` as yaml-cpp does, except that scalars tagged by `quoted` are double-quoted.
void write_node(YAML::Emitter& y, const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map:
      y << YAML::BeginMap;
      for (const auto& entry : node) {
        y << YAML::Key << entry.first.as<std::string>() << YAML::Value;
        write_node(y, entry.second);
      }
      y << YAML::EndMap;
      break;
    case YAML::NodeType::Sequence:
      y << YAML::BeginSeq;
      for (const auto& item : node) write_node(y, item);
      y << YAML::EndSeq;
      break;
    default:
      if (node.Tag() == "!") {
        y << YAML::DoubleQuoted << node.Scalar();
      } else {
        y << node.Scalar();
      }
  }
}

YAML::Node labels(const DistributedJob& job, const std::string& component) {
  YAML::Node n;
  n["app.kubernetes.io/name"] = "slicewise";
  n["app.kubernetes.io/part-of"] = job_base_name(job.sweep_name);
  n["app.kubernetes.io/component"] = component;
  return n;
}

YAML::Node metadata(const DistributedJob& job, const std::string& name, const std::string& component) {
  YAML::Node n;
  n["name"] = name;
  n["labels"] = labels(job, component);
  return n;
}

YAML::Node volume_claim(const DistributedJob& job) {
  YAML::Node n;
  n["apiVersion"] = "v1";
  n["kind"] = "PersistentVolumeClaim";
  n["metadata"] = metadata(job, job_base_name(job.sweep_name) + "-data", "sweep-data");
  // Every shard pod writes its own folder on it, from any node: ReadWriteMany.
  n["spec"]["accessModes"].push_back("ReadWriteMany");
  n["spec"]["resources"]["requests"]["storage"] = "10Gi";
  return n;
}

/// The pod template both Jobs share: one container running slicewise with `args`, the volume
/// mounted at /data, never restarted in place (the Job controller makes a new pod instead).
YAML::Node pod_template(const DistributedJob& job, const std::string& component, const std::string& container,
                        const std::vector<std::string>& args, int cpus, bool with_index) {
  YAML::Node c;
  c["name"] = container;
  c["image"] = quoted(job.image);
  c["workingDir"] = job.workdir;
  c["command"].push_back("slicewise");
  for (const auto& a : args) c["args"].push_back(quoted(a));
  if (with_index) {
    // The Job controller sets JOB_COMPLETION_INDEX itself; declaring it from the pod's annotation
    // (the downward API, as the Job documentation does) makes the $(...) in args independent of that.
    YAML::Node env;
    env["name"] = "JOB_COMPLETION_INDEX";
    env["valueFrom"]["fieldRef"]["fieldPath"] = "metadata.annotations['batch.kubernetes.io/job-completion-index']";
    c["env"].push_back(env);
  }
  c["resources"]["requests"]["cpu"] = quoted(std::to_string(cpus));
  c["resources"]["requests"]["memory"] = std::to_string(cpus) + "Gi";
  YAML::Node mount;
  mount["name"] = "data";
  mount["mountPath"] = kShardsMount;
  c["volumeMounts"].push_back(mount);

  YAML::Node t;
  t["metadata"]["labels"] = labels(job, component);
  t["spec"]["restartPolicy"] = "Never";
  t["spec"]["containers"].push_back(c);
  YAML::Node volume;
  volume["name"] = "data";
  volume["persistentVolumeClaim"]["claimName"] = job_base_name(job.sweep_name) + "-data";
  t["spec"]["volumes"].push_back(volume);
  return t;
}

YAML::Node shards_job(const DistributedJob& job) {
  const std::string index = "$(JOB_COMPLETION_INDEX)";
  const std::vector<std::string> args = {"sweep",
                                         k8s_literal(job.sweep_file),
                                         "--out",
                                         std::string(kShardsMount) + "/shard-" + index,
                                         "--shards",
                                         std::to_string(job.shards),
                                         "--shard-index",
                                         index,
                                         "--resume",
                                         "--jobs",
                                         std::to_string(job.jobs),
                                         "--progress",
                                         "none"};
  YAML::Node n;
  n["apiVersion"] = "batch/v1";
  n["kind"] = "Job";
  n["metadata"] = metadata(job, job_base_name(job.sweep_name) + "-shards", "sweep-shard");
  n["spec"]["completionMode"] = "Indexed";
  n["spec"]["completions"] = job.shards;
  n["spec"]["parallelism"] = job.shards;
  // A retried pod resumes its shard; each index may fail once on average before the Job gives up.
  n["spec"]["backoffLimit"] = job.shards;
  // An evicted or preempted pod (node drain, spot reclaim) is retried without counting against it.
  YAML::Node rule;
  rule["action"] = "Ignore";
  YAML::Node condition;
  condition["type"] = "DisruptionTarget";
  rule["onPodConditions"].push_back(condition);
  n["spec"]["podFailurePolicy"]["rules"].push_back(rule);
  n["spec"]["template"] = pod_template(job, "sweep-shard", "shard", args, job.jobs, true);
  return n;
}

YAML::Node merge_job(const DistributedJob& job) {
  std::vector<std::string> args = {"merge"};
  for (const auto& folder : shard_folders(kShardsMount, job.shards)) args.push_back(folder);
  args.insert(args.end(), {"--out", std::string(kShardsMount) + "/merged"});
  for (const auto& gate : job.fail_if) args.insert(args.end(), {"--fail-if", k8s_literal(gate)});
  YAML::Node n;
  n["apiVersion"] = "batch/v1";
  n["kind"] = "Job";
  n["metadata"] = metadata(job, job_base_name(job.sweep_name) + "-merge", "sweep-merge");
  n["spec"]["completions"] = 1;
  n["spec"]["parallelism"] = 1;
  // Exit 1 (missing points) and 3 (a gate tripped) are answers, not accidents: never retried.
  n["spec"]["backoffLimit"] = 0;
  n["spec"]["template"] = pod_template(job, "sweep-merge", "merge", args, 1, false);
  return n;
}

std::string yaml_documents(const DistributedJob& job, const std::vector<YAML::Node>& documents) {
  YAML::Emitter y;
  for (const auto& d : documents) {
    y << YAML::BeginDoc;
    write_node(y, d);
  }
  return header_comment(job, "#") + y.c_str() + "\n";
}

std::string k8s_submit_script(const DistributedJob& job) {
  const std::string base = job_base_name(job.sweep_name);
  std::string s =
      "#!/bin/sh\n" + header_comment(job, "#") +
      "# Runs the shards (an Indexed Job), waits until it has completed or failed, then runs the merge\n"
      "# Job and prints its log; exits with the merge's outcome. kubectl's current context and\n"
      "# namespace are used; KUBECTL overrides the command, e.g. KUBECTL='kubectl -n sweeps'. Each wait\n"
      "# gives up after WAIT_S seconds (default 86400, a day) and exits 2, leaving the Jobs running.\n"
      "set -eu\n"
      "kubectl=${KUBECTL:-kubectl}\n"
      "wait_s=${WAIT_S:-86400}\n"
      "here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
      "# The state of a Job: Complete, Failed, or empty while it runs.\n"
      "state() { $kubectl get job \"$1\" -o 'jsonpath={.status.conditions[?(@.status==\"True\")].type}'; }\n"
      "wait_for() {\n"
      "  deadline=$(($(date +%s) + wait_s))\n"
      "  while :; do\n"
      "    case \"$(state \"$1\")\" in\n"
      "      *Complete*) return 0 ;;\n"
      "      *Failed*) return 1 ;;\n"
      "    esac\n"
      "    if [ \"$(date +%s)\" -ge \"$deadline\" ]; then\n"
      "      echo \"job $1 has not ended after $wait_s s (WAIT_S); it keeps running\" >&2\n"
      "      exit 2\n"
      "    fi\n"
      "    sleep 10\n"
      "  done\n"
      "}\n";
  s += "$kubectl apply -f \"$here/shards-job.yaml\"\n"
       "wait_for " +
       base +
       "-shards || echo \"some shards failed; the merge names their points\" >&2\n"
       "$kubectl apply -f \"$here/merge-job.yaml\"\n"
       "status=0\n"
       "wait_for " +
       base +
       "-merge || status=1\n"
       "$kubectl logs job/" +
       base +
       "-merge\n"
       "exit $status\n";
  return s;
}

}  // namespace

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string job_base_name(const std::string& sweep_name) {
  // 63 (a pod's hostname label) - "-shards-" - 5 digits of index - "-xxxxx" pod suffix, with room.
  std::string name = "sw-" + report::kubernetes_name(sweep_name);
  if (name.size() > 40) name.resize(40);
  while (name.back() == '-') name.pop_back();
  return name;
}

std::vector<JobFile> emit_job(const DistributedJob& job) {
  std::vector<JobFile> files = {{"job.json", job_json(job), false}};
  if (job.engine == JobEngine::slurm) {
    files.push_back({"sweep.sbatch", slurm_array_script(job), true});
    files.push_back({"merge.sbatch", slurm_merge_script(job), true});
    files.push_back({"submit.sh", slurm_submit_script(job), true});
  } else {
    files.push_back({"shards-job.yaml", yaml_documents(job, {volume_claim(job), shards_job(job)}), false});
    files.push_back({"merge-job.yaml", yaml_documents(job, {merge_job(job)}), false});
    files.push_back({"submit.sh", k8s_submit_script(job), true});
  }
  return files;
}

}  // namespace slicewise::cli
