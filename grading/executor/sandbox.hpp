// Starting the executor sandboxed (issue 32, "the executor's reach"). The grader is a trusted judge
// (inputs, references, verdicts) and an executor that dlopen()s a hostile student library and runs
// its entry points; spawn() starts the executor so that what the library does cannot reach the
// judge, other students' files, the network, or outlive its run.
//
// Layers, each attempted and each reported (a machine that refuses one, such as a Docker container
// without CAP_SYS_ADMIN, still runs the program, and the report says what was missing):
//   pid_namespace        the child is PID 1 of a new PID namespace: when it ends the kernel kills
//                        everything it started, setsid() daemons included; it sees no other process
//   network_namespace    no network at all (a loopback that is down)
//   uid 65534            when the caller is root: no groups, uid and gid nobody
//   no_new_privs         no set-uid or file-capability gain through execve
//   landlock abi N       reads only the system folders, `readable` and the program; writes only
//                        `scratch` and the standard device files and /dev/nvidia*; " scoped" when
//                        it can neither signal nor connect to an abstract socket outside its domain
//   parent_death_signal  SIGKILL when the thread that called spawn() ends
//   rlimits              no core files, no file past 1 GiB
// Not layers: the environment is exactly spec::environment, fd 3 is the channel, stdin is
// /dev/null, every other descriptor is closed, the working folder is `scratch`.
//
// The caller may be multithreaded (CUDA's threads): everything the child needs is prepared before
// the fork, and the child makes only raw system calls until execve.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace kc::grading::sandbox {

struct spec {
  std::string program;                   // absolute path of the executable
  std::vector<std::string> args;         // argv[1..] (argv[0] is program)
  std::vector<std::string> environment;  // the child's whole environment, "NAME=value"; nothing is inherited
  // The one folder it may write: created if missing (its parent must exist), mode 0700, owned by the
  // sandbox's uid; also its working folder. Every folder above it must be searchable by uid 65534.
  // HOME and TMPDIR are the caller's business (put them in environment).
  std::string scratch;
  // Files or folders it may read and map/execute besides the system's; the program is added itself.
  std::vector<std::string> readable;
  int channel_fd = -1;  // dup2'ed to fd 3 in the child; >= 0 required
  int output_fd = -1;   // when >= 0: the child's stdout and stderr; else it inherits 1 and 2
  // false: no layer at all (plain fork/exec with the environment and descriptor hygiene), for runs
  // under tools that cannot follow a sandboxed child.
  bool isolate = true;
  // Each layer on its own (with isolate): a tool that must reach the child (compute-sanitizer talks to
  // its injection library over TCP on the loopback) turns one off; kconform_sandbox_check turns each
  // off in turn to find which one a machine's CUDA cannot run under.
  bool pid_namespace = true;
  bool network_namespace = true;
  bool change_uid = true;
  bool landlock = true;
  bool no_new_privs = true;
  bool file_size_limit = true;  // RLIMIT_FSIZE at 1 GiB (RLIMIT_CORE 0 always)
  // Folders it may also write (all rights beneath them), beside scratch: what a tool's injection
  // library needs (its temporary files); never a folder a judge or another student writes.
  std::vector<std::string> writable;
};

struct child {
  pid_t pid = -1;                   // as seen by the caller (waitpid on it; SIGKILL ends the whole sandbox)
  std::vector<std::string> layers;  // the layers in force: {"pid_namespace", ..., "uid 65534", "landlock abi 7 scoped", ...}
  std::vector<std::string> missing;  // each layer not applied and why: "pid_namespace: clone: Operation not permitted"
};

// Starts program sandboxed. Throws std::runtime_error only when no process could be started at all
// (a bad spec, no fork, or a child that could not set up or execve: the reason's errno text included).
child spawn(const spec& s);

// One line for reports: "pid_namespace, network_namespace, uid 65534, no_new_privs, landlock abi 7
// scoped, parent_death_signal, rlimits (missing: none)".
std::string describe(const child& c);

}  // namespace kc::grading::sandbox
