// export-config's documents, whole, for each format; and read back with yaml-cpp.
#include <cmath>

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "core/error.hpp"
#include "k8s_consumers.hpp"
#include "report/deploy_config.hpp"
#include "report/k8s_text.hpp"
#include "scenario/result_json.hpp"
#include "scenario/strategies/policy.hpp"

namespace slicewise::report {
namespace {

using models::StrategyKind;

/// A result of one strategy on `gpu`: devices given as (GPU index, MIG profile, contexts).
scenario::SimResult result_of(scenario::StrategySpec spec, const std::vector<std::string>& tenants,
                              const std::vector<std::tuple<int, std::string, std::vector<std::string>>>& devices) {
  scenario::SimResult r;
  r.scenario = "deploy";
  r.input.name = "deploy";
  for (const auto& name : tenants) {
    scenario::Tenant t;
    t.name = name;
    t.workload.memory_gib = 4.5;
    r.input.tenants.push_back(t);
  }
  r.input.strategies = {spec};
  scenario::StrategyResult s;
  s.name = spec.name;
  s.kind = models::to_string(spec.kind);
  int most_gpu = -1;
  for (const auto& [gpu, profile, contexts] : devices) {
    scenario::DeviceResult d;
    d.name = "gpu" + std::to_string(gpu) + (profile.empty() ? "" : "/" + profile);
    d.gpu = "A100-80GB";
    d.gpu_index = gpu;
    d.mig_profile = profile;
    d.contexts = contexts;
    s.devices.push_back(d);
    most_gpu = std::max(most_gpu, gpu);
  }
  s.num_gpus_used = most_gpu + 1;
  for (const auto& name : tenants) {
    scenario::TenantResult t;
    t.name = name;
    for (const auto& d : s.devices) {
      for (const auto& c : d.contexts) t.num_contexts += c.rfind(name + "#", 0) == 0 ? 1 : 0;
    }
    s.tenants.push_back(t);
  }
  r.strategies = {s};
  return r;
}

scenario::StrategySpec spec_of(StrategyKind kind) {
  scenario::StrategySpec s;
  s.kind = kind;
  s.name = models::to_string(kind);
  return s;
}

const ConfigFile& file(const std::vector<ConfigFile>& files, const std::string& name) {
  for (const auto& f : files) {
    if (f.name == name) return f;
  }
  throw std::runtime_error("no file " + name);
}

TEST(DeployConfig, TimeSlicingDevicePluginConfigMapAdvertisesTheMostContextsOnOneGpu) {
  const auto r = result_of(spec_of(StrategyKind::time_slicing), {"a", "b", "c"},
                           {{0, "", {"a#0", "b#0", "c#0"}}, {1, "", {"a#1"}}});
  const auto files = deploy_configs(r, "time_slicing");
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].name, "README.md");
  EXPECT_EQ(file(files, "device-plugin-config.yaml").text,
            "apiVersion: v1\n"
            "kind: ConfigMap\n"
            "metadata:\n"
            "  name: slicewise-device-plugin\n"
            "  namespace: gpu-operator\n"
            "data:\n"
            "  slicewise: |\n"
            "    version: v1\n"
            "    flags:\n"
            "      migStrategy: none\n"
            "    sharing:\n"
            "      timeSlicing:\n"
            "        renameByDefault: false\n"
            "        failRequestsGreaterThanOne: true\n"
            "        resources:\n"
            "          - name: nvidia.com/gpu\n"
            "            replicas: 3\n"
            "\n");
  // The ConfigMap's key holds a device-plugin config that reads back.
  const YAML::Node map = YAML::Load(file(files, "device-plugin-config.yaml").text);
  const YAML::Node inner = YAML::Load(map["data"]["slicewise"].as<std::string>());
  EXPECT_EQ(inner["sharing"]["timeSlicing"]["resources"][0]["replicas"].as<int>(), 3);
  // A replica limit of the strategy only bounds packing: the most contexts simulated on one GPU are
  // advertised, not the limit (10 here), so the scheduler shares no GPU more than simulated.
  auto limited = spec_of(StrategyKind::time_slicing);
  limited.replicas = 10;
  const auto limited_map = YAML::Load(
      file(deploy_configs(result_of(limited, {"a", "b", "c"}, {{0, "", {"a#0", "b#0", "c#0"}}}), "time_slicing"),
           "device-plugin-config.yaml")
          .text);
  EXPECT_EQ(
      YAML::Load(
          limited_map["data"]["slicewise"].as<std::string>())["sharing"]["timeSlicing"]["resources"][0]["replicas"]
          .as<int>(),
      3);
  // One Deployment per tenant, its replicas its contexts.
  // One Deployment per tenant and GPU, pinned to the GPU's node: a's two contexts are on two GPUs.
  const auto docs = YAML::LoadAll(file(files, "deployments.yaml").text);
  ASSERT_EQ(docs.size(), 4u);
  EXPECT_EQ(docs[0]["metadata"]["name"].as<std::string>(), "a-gpu0");
  EXPECT_EQ(docs[0]["spec"]["replicas"].as<int>(), 1);
  EXPECT_EQ(docs[0]["spec"]["template"]["spec"]["nodeSelector"]["slicewise.io/gpu"].Scalar(), "gpu0");
  EXPECT_EQ(docs[1]["metadata"]["name"].as<std::string>(), "a-gpu1");
  EXPECT_EQ(docs[1]["spec"]["template"]["spec"]["nodeSelector"]["slicewise.io/gpu"].Scalar(), "gpu1");
  EXPECT_EQ(docs[2]["metadata"]["name"].as<std::string>(), "b");
  EXPECT_EQ(docs[0]["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"]["nvidia.com/gpu"].as<int>(), 1);
}

TEST(DeployConfig, MpsAndMigTimeSlicingConfigMapsAndTheThreadCap) {
  auto mps = spec_of(StrategyKind::mps);
  mps.active_thread_pct = 30.0;  // below the device plugin's 50 % of 2 replicas: written
  const auto files = deploy_configs(result_of(mps, {"a", "b"}, {{0, "", {"a#0", "b#0"}}}), "mps");
  EXPECT_EQ(file(files, "device-plugin-config.yaml").text,
            "apiVersion: v1\n"
            "kind: ConfigMap\n"
            "metadata:\n"
            "  name: slicewise-device-plugin\n"
            "  namespace: gpu-operator\n"
            "data:\n"
            "  slicewise: |\n"
            "    version: v1\n"
            "    flags:\n"
            "      migStrategy: none\n"
            "    sharing:\n"
            "      mps:\n"
            "        renameByDefault: false\n"
            "        failRequestsGreaterThanOne: true\n"
            "        resources:\n"
            "          - name: nvidia.com/gpu\n"
            "            replicas: 2\n"
            "\n");
  const auto docs = YAML::LoadAll(file(files, "deployments.yaml").text);
  const auto container = docs[0]["spec"]["template"]["spec"]["containers"][0];
  EXPECT_EQ(container["env"][0]["name"].as<std::string>(), "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE");
  EXPECT_EQ(container["env"][0]["value"].as<std::string>(), "30");

  auto mts = spec_of(StrategyKind::mig_time_slicing);
  mts.layout = "4g.40gb+3g.40gb";
  const auto mig_files =
      deploy_configs(result_of(mts, {"a", "b", "c"}, {{0, "4g.40gb", {"a#0", "b#0", "c#0"}}, {0, "3g.40gb", {"a#1"}}}),
                     "mig_time_slicing");
  const YAML::Node inner =
      YAML::Load(YAML::Load(file(mig_files, "device-plugin-config.yaml").text)["data"]["slicewise"].as<std::string>());
  EXPECT_EQ(inner["flags"]["migStrategy"].as<std::string>(), "mixed");
  const auto resources = inner["sharing"]["timeSlicing"]["resources"];
  ASSERT_EQ(resources.size(), 2u);
  EXPECT_EQ(resources[0]["name"].as<std::string>(), "nvidia.com/mig-3g.40gb");
  EXPECT_EQ(resources[0]["replicas"].as<int>(), 2);  // one context there; the plugin needs 2 at least
  EXPECT_EQ(resources[1]["name"].as<std::string>(), "nvidia.com/mig-4g.40gb");
  EXPECT_EQ(resources[1]["replicas"].as<int>(), 3);
  // Tenant a got both profiles: a Deployment per profile.
  const auto mig_docs = YAML::LoadAll(file(mig_files, "deployments.yaml").text);
  ASSERT_EQ(mig_docs.size(), 4u);
  EXPECT_EQ(mig_docs[0]["metadata"]["name"].as<std::string>(), "a-3g-40gb");
  EXPECT_EQ(mig_docs[1]["metadata"]["name"].as<std::string>(), "a-4g-40gb");
}

TEST(DeployConfig, MigPartedConfigReadsBackAsTheLayout) {
  auto spec = spec_of(StrategyKind::mig);
  spec.layout = "3g.40gb+2g.20gb+1g.10gb+1g.10gb";
  const auto r = result_of(spec, {"llm", "vision"},
                           {{0, "3g.40gb", {"llm#0"}}, {0, "1g.10gb", {"vision#0"}}, {1, "1g.10gb", {"vision#1"}}});
  const auto files = deploy_configs(r, "mig");
  EXPECT_EQ(file(files, "mig-parted-config.yaml").text,
            "version: v1\n"
            "mig-configs:\n"
            "  slicewise:\n"
            "    - devices: all\n"
            "      mig-enabled: true\n"
            "      mig-devices:\n"
            "        3g.40gb: 1\n"
            "        2g.20gb: 1\n"
            "        1g.10gb: 2\n"
            "  all-disabled:\n"
            "    - devices: all\n"
            "      mig-enabled: false\n");
  const auto layout = read_mig_parted_config(file(files, "mig-parted-config.yaml").text, "slicewise");
  EXPECT_EQ(layout, (std::vector<std::pair<std::string, int>>{{"3g.40gb", 1}, {"2g.20gb", 1}, {"1g.10gb", 2}}));
  // The operator's ConfigMap carries the same text.
  const YAML::Node map = YAML::Load(file(files, "mig-config.yaml").text);
  EXPECT_EQ(read_mig_parted_config(map["data"]["config.yaml"].as<std::string>()), layout);
  // Each tenant asks for its instance's profile.
  const auto docs = YAML::LoadAll(file(files, "deployments.yaml").text);
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[1]["spec"]["replicas"].as<int>(), 2);
  EXPECT_EQ(
      docs[1]["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"]["nvidia.com/mig-1g.10gb"].as<int>(),
      1);
  EXPECT_THROW(read_mig_parted_config("version: v2\n"), ConfigError);
  EXPECT_THROW(read_mig_parted_config("version: v1\nmig-configs: [\n"), ConfigError);
}

TEST(DeployConfig, HamiDeploymentCarriesMemoryCoresAndPriority) {
  auto spec = spec_of(StrategyKind::hami);
  spec.gpucores_pct = 50.0;
  auto r = result_of(spec, {"Chat API"}, {{0, "", {"Chat API#0"}}});
  r.input.tenants[0].priority = scenario::Priority::high;
  r.scenario = "<b>deploy</b> & co";
  const auto files = deploy_configs(r, "hami");
  // The README shows names as written: no HTML gets through.
  EXPECT_EQ(file(files, "README.md").text.substr(0, 64),
            "# Deploying hami (hami) for &lt;b&gt;deploy&lt;/b&gt; &amp; co\n\n");
  ASSERT_EQ(files.size(), 2u);  // no device-plugin config: HAMi has its own
  EXPECT_EQ(file(files, "deployments.yaml").text,
            "---\n"
            "apiVersion: apps/v1\n"
            "kind: Deployment\n"
            "metadata:\n"
            "  name: chat-api\n"
            "  labels:\n"
            "    app.kubernetes.io/name: chat-api\n"
            "    app.kubernetes.io/instance: chat-api\n"
            "    app.kubernetes.io/managed-by: slicewise\n"
            "spec:\n"
            "  replicas: 1\n"
            "  selector:\n"
            "    matchLabels:\n"
            "      app.kubernetes.io/instance: chat-api\n"
            "  template:\n"
            "    metadata:\n"
            "      labels:\n"
            "        app.kubernetes.io/name: chat-api\n"
            "        app.kubernetes.io/instance: chat-api\n"
            "        app.kubernetes.io/managed-by: slicewise\n"
            "    spec:\n"
            "      schedulerName: hami-scheduler\n"
            "      nodeSelector:\n"
            "        slicewise.io/gpu: gpu0\n"
            "      containers:\n"
            "        - name: chat-api\n"
            "          image: REPLACE-WITH-YOUR-IMAGE\n"
            "          resources:\n"
            "            limits:\n"
            "              nvidia.com/gpu: 1\n"
            "              nvidia.com/gpumem: 4608\n"
            "              nvidia.com/gpucores: 50\n"
            "              nvidia.com/priority: 0\n");
}

/// A vLLM tenant of `model` with its engine's defaults, 512 + 128 tokens.
scenario::Workload llm_workload(const std::string& model) {
  scenario::Workload w;
  w.kind = scenario::WorkloadKind::llm;
  w.llm = scenario::LlmSpec{model, "bf16", 512.0, 128.0, std::nullopt};
  w.engine = scenario::EngineSpec{};
  return w;
}

TEST(DeployConfig, AnLlmEnginesHamiMemoryIsItsShareOfTheGpu) {
  // vLLM at gpu_memory_utilization 0.45 of an A100-80GB holds 36 GiB there, as the simulation
  // reserved: 36,864 MiB, not the least device it would start on.
  auto r = result_of(spec_of(StrategyKind::hami), {"llm"}, {{0, "", {"llm#0"}}});
  auto& w = r.input.tenants[0].workload;
  w = llm_workload("Llama-3.1-8B-Instruct");
  w.engine->gpu_memory_utilization = 0.45;
  const auto files = deploy_configs(r, "hami");
  EXPECT_NE(file(files, "deployments.yaml").text.find("              nvidia.com/gpumem: 36864\n"), std::string::npos)
      << file(files, "deployments.yaml").text;
}

TEST(DeployConfig, ATensorParallelGroupAsksForItsGpus) {
  auto r = result_of(spec_of(StrategyKind::dedicated), {"big"}, {{0, "", {"big#0"}}});
  auto& w = r.input.tenants[0].workload;
  w = llm_workload("Llama-3.1-70B-Instruct");
  w.engine->tensor_parallel = 2;
  const auto files = deploy_configs(r, "dedicated");
  EXPECT_NE(file(files, "deployments.yaml").text.find("              nvidia.com/gpu: 2\n"), std::string::npos)
      << file(files, "deployments.yaml").text;
}

TEST(DeployConfig, CommittedResultsExportOrSayWhyNot) {
  // Results of earlier versions: each strategy exports what passes its consumers, or is refused
  // with why (test/sim/export_examples_test.cpp exports every shipped example as simulated now).
  for (const std::string name : {"mixed-mig-h100.json", "seed.json"}) {
    const auto result = scenario::load_result(std::string(SW_TEST_DATA_DIR) + "/results/" + name);
    for (const auto& s : result.strategies) {
      if (name == "mixed-mig-h100.json" && s.name == "mig_time_slicing") {
        // llm-8b alone on one 3g.40gb while the others share the other 3g.40gb: not deployable.
        try {
          deploy_configs(result, s.name);
          ADD_FAILURE() << "exported an undeployable placement";
        } catch (const ConfigError& e) {
          EXPECT_EQ(std::string(e.what()),
                    "--strategy: \"mig_time_slicing\" cannot be deployed as simulated: llm-8b needs an instance of "
                    "its own, but other tenants use other 3g.40gb instances, and the device plugin shares all "
                    "instances of a profile alike. Simulate it again with this slicewise, whose placement follows "
                    "the device plugin");
        }
        continue;
      }
      EXPECT_EQ(test::consumer_problems(result, s.name), std::vector<std::string>{}) << name << " " << s.name;
    }
  }
}

TEST(DeployConfig, MpsDeploysTheThreadsAndMemoryItWasSimulatedWith) {
  // Four clients on one GPU with per-tenant caps, as the device plugin splits it: 4 replicas, so
  // each client gets 25 % of the threads; a's 60 % cannot raise that (no env), b's 10 % lowers it.
  auto mps = spec_of(StrategyKind::mps);
  mps.tenants["a"].active_thread_pct = 60.0;
  mps.tenants["b"].active_thread_pct = 10.0;
  const auto r = result_of(mps, {"a", "b", "c", "d"}, {{0, "", {"a#0", "b#0", "c#0", "d#0"}}});
  EXPECT_EQ(test::consumer_problems(r, "mps"), std::vector<std::string>{});
  const auto files = deploy_configs(r, "mps");
  const auto config =
      YAML::Load(YAML::Load(file(files, "device-plugin-config.yaml").text)["data"]["slicewise"].Scalar());
  EXPECT_EQ(config["sharing"]["mps"]["resources"][0]["replicas"].as<int>(), 4);
  const auto docs = YAML::LoadAll(file(files, "deployments.yaml").text);
  EXPECT_FALSE(docs[0]["spec"]["template"]["spec"]["containers"][0]["env"].IsDefined());
  EXPECT_EQ(docs[1]["spec"]["template"]["spec"]["containers"][0]["env"][0]["value"].Scalar(), "10");
  // Replicas the strategy set are advertised as set, even where fewer clients landed.
  mps.replicas = 8;
  const auto eight = result_of(mps, {"a", "b"}, {{0, "", {"a#0", "b#0"}}});
  EXPECT_EQ(test::consumer_problems(eight, "mps"), std::vector<std::string>{});
  // Under a daemon of one's own nothing the device plugin deploys matches: refused, with why.
  mps.mps_daemon = scenario::MpsDaemon::own;
  try {
    deploy_configs(result_of(mps, {"a"}, {{0, "", {"a#0"}}}), "mps");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).substr(0, 88),
              "--strategy: \"mps\" was simulated under an MPS daemon of your own (mps_daemon own): NVIDIA");
  }
}

TEST(DeployConfig, NamesThatYaml11ReadsAsOtherTypesStayStrings) {
  // kubectl reads YAML 1.1: each of these, written plain, would be a boolean, a number, a null or a date.
  const std::vector<std::string> names = {"yes",  "on",  "No",   "true", "8080",      "0123",
                                          "0x1f", "1e3", "null", "y",    "2026-11-29"};
  std::vector<std::tuple<int, std::string, std::vector<std::string>>> devices;
  for (std::size_t i = 0; i < names.size(); ++i)
    devices.emplace_back(static_cast<int>(i), "", std::vector<std::string>{names[i] + "#0"});
  auto mps = spec_of(StrategyKind::mps);
  mps.active_thread_pct = 30.0;
  const auto r = result_of(mps, names, devices);
  EXPECT_EQ(test::consumer_problems(r, "mps"), std::vector<std::string>{});
  const auto docs = YAML::LoadAll(file(deploy_configs(r, "mps"), "deployments.yaml").text);
  ASSERT_EQ(docs.size(), names.size());
  EXPECT_EQ(docs[0]["metadata"]["name"].Scalar(), "yes");
  EXPECT_EQ(docs[0]["metadata"]["name"].Tag(), "!");  // "yes", double-quoted
  EXPECT_EQ(docs[6]["metadata"]["name"].Scalar(), "0x1f");
  EXPECT_EQ(docs[6]["metadata"]["name"].Tag(), "!");
  // EnvVar.value is a string for the API server: "30", never a bare 30.
  const auto env = docs[0]["spec"]["template"]["spec"]["containers"][0]["env"][0]["value"];
  EXPECT_EQ(env.Scalar(), "30");
  EXPECT_EQ(env.Tag(), "!");
  // The checker itself: a plain yes, 0123 or 1e3 is a problem, a quoted one is not.
  EXPECT_NE(test::string_problem(YAML::Load("yes"), "x"), "");
  EXPECT_NE(test::string_problem(YAML::Load("0123"), "x"), "");
  EXPECT_NE(test::string_problem(YAML::Load("1e3"), "x"), "");
  EXPECT_EQ(test::string_problem(YAML::Load("\"yes\""), "x"), "");
  EXPECT_EQ(test::string_problem(YAML::Load("chat-api"), "x"), "");
}

TEST(DeployConfig, ADeploymentsNameKeepsItsSuffixWithinSixtyThreeCharacters) {
  const std::string long_name(80, 'a');
  EXPECT_EQ(kubernetes_name(long_name, "2"), std::string(61, 'a') + "-2");
  EXPECT_EQ(kubernetes_name(long_name, "3g.40gb"), std::string(55, 'a') + "-3g-40gb");
  auto mts = spec_of(StrategyKind::mig_time_slicing);
  mts.layout = "4g.40gb+3g.40gb";
  const auto r = result_of(mts, {long_name, long_name + "b"},
                           {{0, "4g.40gb", {long_name + "#0", long_name + "b#0"}}, {0, "3g.40gb", {long_name + "#1"}}});
  EXPECT_EQ(test::consumer_problems(r, "mig_time_slicing"), std::vector<std::string>{});
  const auto docs = YAML::LoadAll(file(deploy_configs(r, "mig_time_slicing"), "deployments.yaml").text);
  ASSERT_EQ(docs.size(), 3u);
  // One tenant's Deployments (one per MIG profile) share its name label; each selects its own pods.
  EXPECT_EQ(docs[0]["metadata"]["labels"]["app.kubernetes.io/name"].Scalar(), std::string(63, 'a'));
  EXPECT_EQ(docs[1]["metadata"]["labels"]["app.kubernetes.io/name"].Scalar(), std::string(63, 'a'));
  EXPECT_NE(docs[0]["spec"]["selector"]["matchLabels"]["app.kubernetes.io/instance"].Scalar(),
            docs[1]["spec"]["selector"]["matchLabels"]["app.kubernetes.io/instance"].Scalar());
}

TEST(DeployConfig, TheRunbookSetsTheOperatorUpAndRollsBack) {
  auto mig = spec_of(StrategyKind::mig);
  mig.layout = "3g.40gb+2g.20gb+1g.10gb+1g.10gb";
  const auto mig_readme =
      file(deploy_configs(result_of(mig, {"a"}, {{0, "3g.40gb", {"a#0"}}}), "mig"), "README.md").text;
  EXPECT_NE(mig_readme.find("{\"spec\": {\"mig\": {\"strategy\": \"mixed\"}}}"), std::string::npos);
  EXPECT_NE(mig_readme.find("`kubectl label node NODE nvidia.com/mig.config=all-disabled --overwrite`"),
            std::string::npos);
  auto mps = spec_of(StrategyKind::mps);
  mps.tenants["b"].active_thread_pct = 25.0;
  const auto mps_readme =
      file(deploy_configs(result_of(mps, {"a", "b"}, {{0, "", {"a#0", "b#0"}}}), "mps"), "README.md").text;
  // The device plugin's config is selected by a node label, never made every node's default.
  EXPECT_EQ(mps_readme.find("\"default\""), std::string::npos);
  EXPECT_NE(mps_readme.find("`kubectl label node NODE nvidia.com/device-plugin.config=slicewise --overwrite`"),
            std::string::npos);
  EXPECT_NE(
      mps_readme.find("- The device plugin advertises each GPU as 2 replicas, and its MPS daemon gives every client "
                      "1/2 of the GPU's memory (40 GiB of A100-80GB) and 50 % of its threads, as slicewise "
                      "simulated; a client's `CUDA_MPS_ACTIVE_THREAD_PERCENTAGE` can only lower its share, and the "
                      "Deployments lower it for b 25 %.\n"),
      std::string::npos)
      << mps_readme;
  EXPECT_NE(mps_readme.find("## Roll back"), std::string::npos);
  // HAMi: installed, its nodes labelled, the operator's device plugin off, its split as simulated.
  auto hami = spec_of(StrategyKind::hami);
  hami.replicas = 4;
  const auto hami_readme = file(deploy_configs(result_of(hami, {"a"}, {{0, "", {"a#0"}}}), "hami"), "README.md").text;
  for (const std::string step :
       {"`kubectl patch clusterpolicies.nvidia.com/cluster-policy --type merge -p '{\"spec\": {\"devicePlugin\": "
        "{\"enabled\": false}}}'`",
        "`kubectl label node NODE gpu=on`",
        "`helm install hami hami-charts/hami -n kube-system --set devicePlugin.deviceSplitCount=4`",
        "`helm uninstall hami -n kube-system`"}) {
    EXPECT_NE(hami_readme.find(step), std::string::npos) << step << "\n" << hami_readme;
  }
}

TEST(DeployConfig, NamesAndUnknownStrategies) {
  EXPECT_EQ(kubernetes_name("Job_01"), "job-01");
  EXPECT_EQ(kubernetes_name("--x--"), "x");
  EXPECT_EQ(kubernetes_name("###"), "tenant");
  EXPECT_EQ(kubernetes_name(std::string(80, 'a')).size(), 63u);
  EXPECT_EQ(namespace_problem("gpu-operator"), "");
  EXPECT_NE(namespace_problem("GPU_Operator"), "");
  EXPECT_NE(namespace_problem(std::string(64, 'a')), "");
  EXPECT_NE(namespace_problem("-x"), "");
  try {
    deploy_configs(result_of(spec_of(StrategyKind::mps), {"a"}, {{0, "", {"a#0"}}}), "mps", "GPU_Operator");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--namespace: \"GPU_Operator\" is not a namespace: lower-case letters, digits and '-', starting and "
              "ending with a letter or digit (an RFC 1123 label)");
  }
  const auto r = result_of(spec_of(StrategyKind::mps), {"a"}, {{0, "", {"a#0"}}});
  try {
    deploy_configs(r, "mig");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), "--strategy: the result has no strategy \"mig\"; it has mps");
  }
}

}  // namespace
}  // namespace slicewise::report
