// `slicewise sweep SWEEP --emit slurm|k8s --shards N --out DIR` (docs/distributed.md): the files
// that run a sweep's shards on an existing batch system and merge them with the gates, rather than
// a scheduler of our own. Slurm gets a job array (one shard per task) and a merge job that depends
// on it; Kubernetes gets an Indexed Job (one shard per completion index) on a shared volume and a
// merge Job. Every shard runs `slicewise sweep --shards N --shard-index I --resume`, so a task that
// is retried or submitted again keeps the points its shard already finished. Pure: the files are
// returned as text; cmd_sweep writes them.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace slicewise::cli {

enum class JobEngine { slurm, k8s };

/// What a distributed run of one sweep needs to know.
struct DistributedJob {
  JobEngine engine = JobEngine::slurm;
  std::string sweep_name;
  std::string fingerprint;  ///< the sweep's (scenario::sweep_fingerprint): job.json keeps it
  std::size_t num_points = 0;
  int shards = 1;
  int jobs = 1;  ///< points at once per shard: CPUs per task or pod
  std::vector<std::string> fail_if;
  std::string emitted_by;  ///< the command line, for the files' header comment
  /// Slurm: absolute paths on the shared file system (the nodes see the same paths).
  std::string slicewise;   ///< the executable; SLICEWISE in the environment overrides it
  std::string sweep_file;  ///< Slurm: absolute; Kubernetes: as seen from the image's working folder
  std::string folder;      ///< Slurm: the job folder, absolute (shards/, merged/, logs/)
  /// Kubernetes only.
  std::string image;                   ///< holds `slicewise` on its PATH and the sweep's inputs
  std::string workdir = "/slicewise";  ///< the image's folder the sweep path is relative to
};

/// One file of the job folder.
struct JobFile {
  std::string name;
  std::string text;
  bool executable = false;
};

/// The files for `job`: job.json (what was emitted, checked when emitting again into the same
/// folder), then for Slurm sweep.sbatch, merge.sbatch and submit.sh; for Kubernetes
/// shards-job.yaml (the volume claim and the Indexed Job), merge-job.yaml and submit.sh.
std::vector<JobFile> emit_job(const DistributedJob& job);

/// The name the jobs, volume and pods share: "sw-" and the sweep's name as an RFC 1123 label,
/// short enough that "<name>-shards-<index>-<suffix>" pod names stay within 63 characters.
std::string job_base_name(const std::string& sweep_name);

/// `text` as one POSIX shell word: in single quotes, each ' written as '\''.
std::string shell_quote(const std::string& text);

}  // namespace slicewise::cli
