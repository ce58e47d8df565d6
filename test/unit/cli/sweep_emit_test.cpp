// `sweep --emit slurm|k8s` and `--shards N --shard-index I`: the Kubernetes manifests read back
// with yaml-cpp and checked against the batch/v1 Job API, the pods' arguments run in-process as
// the Job controller would expand them (merged = serial), the Slurm scripts' shell quoting run
// through bash, and every refusal. The real Slurm run is test/e2e/slurm_test.sh.
#include "cli/sweep_emit.hpp"

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "cli_test_util.hpp"
#include "core/json_file.hpp"
#include "core/spell.hpp"

namespace slicewise::cli {
namespace {

namespace fs = std::filesystem;
using test::run;

const std::string kSweep = std::string(SW_SOURCE_DIR) + "/examples/sweep-seed-users.json";  // 8 points

/// A fresh, empty folder for one test, removed afterwards.
class EmitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sw_emit_test_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

std::string text_of(const fs::path& file) { return read_text_file(file); }

/// An RFC 1123 label, as the API server requires of Job and claim names (and pod hostnames).
bool is_dns_label(const std::string& name) {
  return name.size() <= 63 && std::regex_match(name, std::regex("[a-z0-9]([-a-z0-9]*[a-z0-9])?"));
}

/// The container's arguments as the kubelet runs them for completion index `index`: $(VAR)
/// expanded from the container's env, $$ unescaped; /data (the volume) moved to `volume`.
std::vector<std::string> pod_argv(const YAML::Node& container, int index, const fs::path& volume) {
  std::vector<std::string> argv;
  for (const auto& arg : container["args"]) {
    std::string a = arg.Scalar();
    std::string out;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a.compare(i, 2, "$$") == 0) {
        out += '$';
        ++i;
      } else if (a.compare(i, 23, "$(JOB_COMPLETION_INDEX)") == 0) {
        out += std::to_string(index);
        i += 22;
      } else {
        out += a[i];
      }
    }
    if (out.rfind("/data/", 0) == 0) out = (volume / out.substr(6)).string();
    argv.push_back(out);
  }
  return argv;
}

void expect_job_basics(const YAML::Node& job, const std::string& name) {
  EXPECT_EQ(job["apiVersion"].as<std::string>(), "batch/v1");
  EXPECT_EQ(job["kind"].as<std::string>(), "Job");
  EXPECT_EQ(job["metadata"]["name"].as<std::string>(), name);
  EXPECT_TRUE(is_dns_label(name)) << name;
  const auto pod = job["spec"]["template"]["spec"];
  // A Job's pods may only be Never or OnFailure; podFailurePolicy needs Never.
  EXPECT_EQ(pod["restartPolicy"].as<std::string>(), "Never");
  ASSERT_EQ(pod["containers"].size(), 1u);
  const auto c = pod["containers"][0];
  EXPECT_EQ(c["image"].as<std::string>(), "registry.example/slicewise:1.2");
  EXPECT_EQ(c["workingDir"].as<std::string>(), "/slicewise");
  EXPECT_EQ(c["command"][0].as<std::string>(), "slicewise");
  // args is []string: every element must read back as a string, never a number.
  for (const auto& arg : c["args"]) EXPECT_EQ(arg.Tag(), "!") << arg.Scalar() << " is not a quoted string";
  EXPECT_EQ(c["volumeMounts"][0]["name"].as<std::string>(), pod["volumes"][0]["name"].as<std::string>());
  EXPECT_EQ(c["volumeMounts"][0]["mountPath"].as<std::string>(), "/data");
  EXPECT_EQ(pod["volumes"][0]["persistentVolumeClaim"]["claimName"].as<std::string>(), "sw-seed-users-data");
}

TEST_F(EmitTest, KubernetesJobsFollowTheJobApi) {
  const auto r =
      run({"sweep", kSweep, "--emit", "k8s", "--shards", "4", "--jobs", "2", "--image",
           "registry.example/slicewise:1.2", "--out", dir_.string(), "--fail-if", "sla_violation_rate > 0.01"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "seed-users: 8 points in 4 shards; wrote job.json shards-job.yaml merge-job.yaml submit.sh to " +
                       dir_.string() + "\nsubmit with: " + (dir_ / "submit.sh").string() + "\n");

  const auto documents = YAML::LoadAll(text_of(dir_ / "shards-job.yaml"));
  ASSERT_EQ(documents.size(), 2u);
  const auto& claim = documents[0];
  EXPECT_EQ(claim["apiVersion"].as<std::string>(), "v1");
  EXPECT_EQ(claim["kind"].as<std::string>(), "PersistentVolumeClaim");
  EXPECT_EQ(claim["metadata"]["name"].as<std::string>(), "sw-seed-users-data");
  EXPECT_EQ(claim["spec"]["accessModes"][0].as<std::string>(), "ReadWriteMany");
  EXPECT_EQ(claim["spec"]["resources"]["requests"]["storage"].as<std::string>(), "10Gi");

  const auto& shards = documents[1];
  expect_job_basics(shards, "sw-seed-users-shards");
  EXPECT_EQ(shards["spec"]["completionMode"].as<std::string>(), "Indexed");
  EXPECT_EQ(shards["spec"]["completions"].as<int>(), 4);
  EXPECT_EQ(shards["spec"]["parallelism"].as<int>(), 4);
  EXPECT_EQ(shards["spec"]["backoffLimit"].as<int>(), 4);
  const auto rule = shards["spec"]["podFailurePolicy"]["rules"][0];
  EXPECT_EQ(rule["action"].as<std::string>(), "Ignore");
  EXPECT_EQ(rule["onPodConditions"][0]["type"].as<std::string>(), "DisruptionTarget");
  const auto shard = shards["spec"]["template"]["spec"]["containers"][0];
  EXPECT_EQ(shard["env"][0]["name"].as<std::string>(), "JOB_COMPLETION_INDEX");
  EXPECT_EQ(shard["env"][0]["valueFrom"]["fieldRef"]["fieldPath"].as<std::string>(),
            "metadata.annotations['batch.kubernetes.io/job-completion-index']");
  EXPECT_EQ(shard["resources"]["requests"]["cpu"].as<std::string>(), "2");
  EXPECT_EQ(shard["resources"]["requests"]["memory"].as<std::string>(), "2Gi");
  std::vector<std::string> args;
  for (const auto& a : shard["args"]) args.push_back(a.Scalar());
  EXPECT_EQ(args, (std::vector<std::string>{"sweep", kSweep, "--out", "/data/shard-$(JOB_COMPLETION_INDEX)", "--shards",
                                            "4", "--shard-index", "$(JOB_COMPLETION_INDEX)", "--resume", "--jobs", "2",
                                            "--progress", "none"}));

  const auto merge_documents = YAML::LoadAll(text_of(dir_ / "merge-job.yaml"));
  ASSERT_EQ(merge_documents.size(), 1u);
  const auto& merge = merge_documents[0];
  expect_job_basics(merge, "sw-seed-users-merge");
  EXPECT_FALSE(merge["spec"]["completionMode"].IsDefined());
  EXPECT_EQ(merge["spec"]["completions"].as<int>(), 1);
  EXPECT_EQ(merge["spec"]["backoffLimit"].as<int>(), 0);
  args.clear();
  for (const auto& a : merge["spec"]["template"]["spec"]["containers"][0]["args"]) args.push_back(a.Scalar());
  EXPECT_EQ(args, (std::vector<std::string>{"merge", "/data/shard-0", "/data/shard-1", "/data/shard-2", "/data/shard-3",
                                            "--out", "/data/merged", "--fail-if", "sla_violation_rate > 0.01"}));
  const std::string submit = text_of(dir_ / "submit.sh");
  EXPECT_NE(submit.find("wait_for sw-seed-users-shards"), std::string::npos);
  EXPECT_NE(submit.find("apply -f \"$here/merge-job.yaml\""), std::string::npos);
  EXPECT_TRUE((fs::status(dir_ / "submit.sh").permissions() & fs::perms::owner_exec) != fs::perms::none);
}

TEST_F(EmitTest, KubernetesSubmitGivesUpAfterWaitSeconds) {
  // A Job that never ends (kubectl reports no condition): submit.sh stops waiting after WAIT_S and
  // exits 2 instead of waiting for ever.
  ASSERT_EQ(
      run({"sweep", kSweep, "--emit", "k8s", "--shards", "2", "--image", "x", "--out", (dir_ / "job").string()}).code,
      0);
  const fs::path fake = dir_ / "kubectl";
  write_file_atomically(fake, "#!/bin/sh\nexit 0\n");
  fs::permissions(fake, fs::perms::owner_all);
  const std::string command = "KUBECTL=" + shell_quote(fake.string()) + " WAIT_S=0 sh " +
                              shell_quote((dir_ / "job" / "submit.sh").string()) + " 2>" +
                              shell_quote((dir_ / "err").string());
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_EQ(text_of(dir_ / "err"), "job sw-seed-users-shards has not ended after 0 s (WAIT_S); it keeps running\n");
}

TEST_F(EmitTest, ALineBreakingCodePointNeverReachesTheJobFiles) {
  // U+2028 ends a line for YAML: in a header comment, what follows it would become a document.
  const std::string sep = "\xe2\x80\xa8";
  const fs::path folder = dir_ / ("in" + sep + "kind: Pod" + sep);
  fs::create_directories(folder);
  fs::copy_file(kSweep, folder / "sweep.json");
  fs::copy_file(std::string(SW_SOURCE_DIR) + "/examples/seed-l40s-timeslicing.json",
                folder / "seed-l40s-timeslicing.json");
  const auto r = run({"sweep", (folder / "sweep.json").string(), "--emit", "k8s", "--shards", "2", "--image", "x",
                      "--out", (dir_ / "job").string()});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "sweep: \"" + excerpt((folder / "sweep.json").string()) +
                       "\" holds a control character or a line break (U+0085, U+2028, U+2029), which would end a "
                       "line of the job files\n");
  EXPECT_FALSE(fs::exists(dir_ / "job"));
  for (const std::string& code_point : {std::string("\xc2\x85"), sep, std::string("\xe2\x80\xa9")}) {
    const auto gate = run({"sweep", kSweep, "--emit", "slurm", "--shards", "2", "--out", (dir_ / "job").string(),
                           "--fail-if", "sla_violation_rate > 0.01" + code_point + "x"});
    EXPECT_EQ(gate.code, 1);
    EXPECT_EQ(gate.err.rfind("--fail-if: ", 0), 0u) << gate.err;
  }
  // A sweep named with one is refused where it is read.
  nlohmann::json named = read_json_file(kSweep);
  named["name"] = "a" + sep + "kind: Pod";
  named["base"] = std::string(SW_SOURCE_DIR) + "/examples/seed-l40s-timeslicing.json";
  write_file_atomically(dir_ / "named.json", named.dump(1));
  const auto n = run(
      {"sweep", (dir_ / "named.json").string(), "--emit", "slurm", "--shards", "2", "--out", (dir_ / "job").string()});
  EXPECT_EQ(n.code, 1);
  EXPECT_NE(n.err.find("/name: must not contain control characters such as line breaks or tabs, nor U+0085, U+2028 or "
                       "U+2029"),
            std::string::npos)
      << n.err;
}

TEST_F(EmitTest, KubernetesPodsRunTheirShardsAndTheMergeEqualsASerialRun) {
  ASSERT_EQ(run({"sweep", kSweep, "--emit", "k8s", "--shards", "3", "--image", "registry.example/slicewise:1.2",
                 "--out", (dir_ / "job").string()})
                .code,
            0);
  const auto shards = YAML::LoadAll(text_of(dir_ / "job" / "shards-job.yaml"))[1];
  const auto shard = shards["spec"]["template"]["spec"]["containers"][0];
  fs::create_directories(dir_ / "volume");  // the claim, mounted at /data
  for (int index = 0; index < shards["spec"]["completions"].as<int>(); ++index) {
    const auto r = run(pod_argv(shard, index, dir_ / "volume"));
    ASSERT_EQ(r.code, 0) << r.err;
  }
  EXPECT_NE(text_of(dir_ / "volume" / "shard-1" / "sweep.json").find("\"shard\": \"2/3\""), std::string::npos);
  const auto merge =
      YAML::LoadAll(text_of(dir_ / "job" / "merge-job.yaml"))[0]["spec"]["template"]["spec"]["containers"][0];
  const auto m = run(pod_argv(merge, 0, dir_ / "volume"));
  ASSERT_EQ(m.code, 0) << m.err;
  ASSERT_EQ(run({"sweep", kSweep, "--out", (dir_ / "serial").string(), "--progress", "none"}).code, 0);
  for (const char* file : {"results.csv", "results.json", "junit.xml"}) {
    EXPECT_EQ(text_of(dir_ / "volume" / "merged" / file), text_of(dir_ / "serial" / file)) << file;
  }
}

TEST_F(EmitTest, ShardIndexCountsFromZeroAndNamesTheSameShardAsKOfN) {
  ASSERT_EQ(run({"sweep", kSweep, "--out", (dir_ / "a").string(), "--shards", "4", "--shard-index", "1", "--progress",
                 "none"})
                .code,
            0);
  ASSERT_EQ(run({"sweep", kSweep, "--out", (dir_ / "b").string(), "--shard", "2/4", "--progress", "none"}).code, 0);
  EXPECT_EQ(text_of(dir_ / "a" / "sweep.json"), text_of(dir_ / "b" / "sweep.json"));
  EXPECT_EQ(text_of(dir_ / "a" / "results.csv"), text_of(dir_ / "b" / "results.csv"));
  EXPECT_TRUE(fs::exists(dir_ / "a" / "points" / "p0001.json"));
  EXPECT_TRUE(fs::exists(dir_ / "a" / "points" / "p0005.json"));
  // Either form resumes the other's folder.
  const auto r = run({"sweep", kSweep, "--out", (dir_ / "b").string(), "--shards", "4", "--shard-index", "1",
                      "--resume", "--progress", "none"});
  EXPECT_EQ(r.code, 0) << r.err;
}

TEST_F(EmitTest, SlurmScriptsQuoteEveryPathForTheShell) {
  // A folder with a quote, a dollar, a space and a percent sign in its name (one with a line break
  // is refused: ALineBreakingCodePointNeverReachesTheJobFiles).
  EXPECT_EQ(run({"sweep", kSweep, "--emit", "slurm", "--shards", "2", "--out", (dir_ / "a\nb").string()}).code, 1);
  const fs::path folder = dir_ / "it's $HOME 100% x";
  const auto r = run({"sweep", kSweep, "--emit", "slurm", "--shards", "2", "--jobs", "2", "--out", folder.string(),
                      "--fail-if", "time_slicing: p99_s[phi-3.5-mini-instruct] > 2"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string array = text_of(folder / "sweep.sbatch");
  EXPECT_NE(array.find("\n#SBATCH --array=0-1\n"), std::string::npos);
  EXPECT_NE(array.find("\n#SBATCH --cpus-per-task=2\n"), std::string::npos);
  EXPECT_NE(array.find("--shards 2 --shard-index \"$SLURM_ARRAY_TASK_ID\" --resume"), std::string::npos);
  EXPECT_NE(array.find("sweep '" + fs::absolute(kSweep).lexically_normal().string() + "'"), std::string::npos);
  EXPECT_NE(array.find("100% x' --jobs 2"), std::string::npos);

  // Run each script's variable lines through bash: the values come back exactly.
  const std::string merge = text_of(folder / "merge.sbatch");
  const auto job_line = merge.substr(merge.find("\njob=") + 1);
  const fs::path probe = dir_ / "probe.sh";
  {
    std::ofstream out(probe);
    out << job_line.substr(0, job_line.find("\nexec ")) << "\nprintf '%s' \"$job\" > "
        << shell_quote((dir_ / "value").string()) << "\n";
  }
  ASSERT_EQ(std::system(("bash " + shell_quote(probe.string())).c_str()), 0);
  EXPECT_EQ(text_of(dir_ / "value"), folder.string());
  EXPECT_NE(merge.find("\"$job/shards/shard-0\" \\\n  \"$job/shards/shard-1\" \\\n  --out \"$job/merged\" \\\n"
                       "  --fail-if 'time_slicing: p99_s[phi-3.5-mini-instruct] > 2'\n"),
            std::string::npos);
  // sbatch reads % in --output as a pattern: the folder's own is doubled.
  EXPECT_NE(text_of(folder / "submit.sh").find("100%% x/logs'"), std::string::npos);
  EXPECT_EQ(std::system(("bash -n " + shell_quote((folder / "submit.sh").string())).c_str()), 0);
}

TEST(EmitNames, JobNamesAreDnsLabelsWithRoomForThePodSuffix) {
  EXPECT_EQ(job_base_name("seed-users"), "sw-seed-users");
  EXPECT_EQ(job_base_name("Team A's sweep!!"), "sw-team-a-s-sweep");
  const std::string long_name = job_base_name(std::string(80, 'a') + "-b");
  EXPECT_EQ(long_name.size(), 40u);
  EXPECT_TRUE(is_dns_label(long_name + "-shards-99999-abcde"));
  EXPECT_EQ(shell_quote("a'b"), "'a'\\''b'");
}

TEST_F(EmitTest, EveryMisuseIsRefusedWithItsReason) {
  struct Case {
    std::vector<std::string> args;
    int code;
    std::string message;
  };
  const std::string out = (dir_ / "out").string();
  // Exit 1: the whole message; exit 2 (CLI11's usage errors): the option it names.
  const std::string columns =
      "num_gpus, monthly_cost_usd, monthly_savings_usd, annual_savings_usd, savings_frac, fleet_busy_frac, "
      "fleet_sm_util_frac, sla_violation_rate, sla_met, tenants_missing_sla, p95_s[phi-3.5-mini-instruct], "
      "p99_s[phi-3.5-mini-instruct], sla_violation_frac[phi-3.5-mini-instruct], p95_s[deepseek-r1-distill-llama-8b], "
      "p99_s[deepseek-r1-distill-llama-8b], sla_violation_frac[deepseek-r1-distill-llama-8b]";
  const std::vector<Case> cases = {
      {{"--emit", "slurm"}, 1, "--emit: needs --shards N, the number of shards (array tasks or completion indexes)"},
      {{"--emit", "slurm", "--shards", "9"},
       1,
       "--shards: is 9 but the sweep has 8 points: at most one shard per point"},
      {{"--emit", "slurm", "--shards", "2", "--image", "x"}, 1, "--image: applies to --emit k8s only"},
      {{"--emit", "slurm", "--shards", "2", "--resume"},
       1,
       "--emit: writes the job files of every shard: leave out --shard, --shard-index and --resume"},
      {{"--emit", "slurm", "--shards", "2", "--progress", "bar"},
       1,
       "--progress: applies to a sweep that runs here, not to --emit (the shards run with --progress none)"},
      {{"--emit", "pbs", "--shards", "2"}, 2, "--emit"},
      {{"--emit", "k8s", "--shards", "2"},
       1,
       "--image: is needed with --emit k8s: the container image that holds slicewise and the sweep's inputs "
       "(docs/distributed.md shows how to build one)"},
      {{"--emit", "k8s", "--shards", "2", "--image", "x", "--fail-if", "p99_s[nobody] > 1"},
       1,
       "--fail-if: \"p99_s[nobody] > 1\": unknown metric \"p99_s[nobody]\"; numeric columns of results.csv are " +
           columns},
      {{"--shards", "2"},
       1,
       "--shards: runs one shard only with --shard-index I (0-based), e.g. --shards 4 --shard-index "
       "\"$SLURM_ARRAY_TASK_ID\"; "
       "or writes the job files with --emit slurm|k8s"},
      {{"--shard-index", "1"}, 1, "--shard-index: needs --shards N, the number of shards"},
      {{"--shards", "4", "--shard-index", "4"}, 1, "--shard-index: must be 0..3 for --shards 4 (got 4)"},
      {{"--shard", "1/4", "--shards", "4"}, 2, "excludes"},
      // A 0-based index given to the 1-based form: which form takes it.
      {{"--shard", "0/4"},
       1,
       "--shard: K counts from 1 (1/4 to 4/4; got \"0/4\"); a 0-based index (SLURM_ARRAY_TASK_ID, "
       "JOB_COMPLETION_INDEX) goes to --shards 4 --shard-index 0"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"sweep", kSweep, "--out", out};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto r = run(args);
    EXPECT_EQ(r.code, c.code) << c.message << "\n" << r.err;
    if (c.code == 1) {
      EXPECT_EQ(r.err, c.message + "\n");
    } else {
      EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    }
    EXPECT_FALSE(fs::exists(dir_ / "out" / "job.json")) << c.message;
  }
  // A folder with other files, and a job folder of another shard count, are left alone.
  fs::create_directories(dir_ / "other");
  std::ofstream(dir_ / "other" / "notes.txt") << "mine\n";
  auto r = run({"sweep", kSweep, "--emit", "slurm", "--shards", "2", "--out", (dir_ / "other").string()});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, (dir_ / "other").string() + ": exists and is not a job folder; choose an empty or new --out\n");
  ASSERT_EQ(run({"sweep", kSweep, "--emit", "slurm", "--shards", "2", "--out", out}).code, 0);
  const std::string before = text_of(dir_ / "out" / "sweep.sbatch");
  r = run({"sweep", kSweep, "--emit", "slurm", "--shards", "4", "--out", out});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, fs::absolute(out).lexically_normal().string() +
                       ": holds the files of another job (engine, sweep or shard count differ; its shard folders "
                       "would not resume): choose another --out\n");
  EXPECT_EQ(text_of(dir_ / "out" / "sweep.sbatch"), before);
  // The same job again (another gate): its files are written again.
  r = run({"sweep", kSweep, "--emit", "slurm", "--shards", "2", "--out", out, "--fail-if", "sla_violation_rate > 0.5"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(text_of(dir_ / "out" / "merge.sbatch").find("--fail-if 'sla_violation_rate > 0.5'"), std::string::npos);
}

}  // namespace
}  // namespace slicewise::cli
