// PostgresServer: a throwaway PostgreSQL 15 for tests and the store bench. Start() runs initdb
// into a fresh temporary directory, starts the server with pg_ctl listening on 127.0.0.1 only
// (a free port, the unix socket inside the directory, trust authentication for user
// "postgres") and waits, bounded, until it accepts connections; the destructor stops it and
// removes the directory. A watchdog process does the same if this process dies first (crash,
// kill), so no server outlives the test run.
//
// PostgreSQL refuses to run as root: as root, every server command runs as the system user
// "postgres" (Debian's postgresql packages create it) through `runuser -u postgres --`, and the
// directory is chowned to it. No user is ever created. As another user, the commands run as
// that user. When PostgreSQL is missing or fails to start, Start() returns an error carrying
// the command and the end of its log: callers fail on it, never skip.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pwd.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/result.h"

namespace berth::store::testing {

class PostgresServer {
 public:
  static constexpr const char* kBinDir = "/usr/lib/postgresql/15/bin";

  static core::Result<std::unique_ptr<PostgresServer>> Start() {
    std::unique_ptr<PostgresServer> server(new PostgresServer());
    core::Status status = server->Launch();
    if (!status.ok()) {
      return std::move(status).error();
    }
    return server;
  }

  ~PostgresServer() {
    if (started_) {
      (void)Run({Bin("pg_ctl"), "-D", data_, "-m", "fast", "-w", "-t", "30", "stop"}, true);
    }
    if (watchdog_fd_ >= 0) {
      ::close(watchdog_fd_);  // the watchdog finds nothing left to do and exits
      ::waitpid(watchdog_pid_, nullptr, 0);
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;

  int port() const { return port_; }

  // A libpq connection string for database `db` on this server.
  std::string ConnInfo(const std::string& db) const {
    return "host=127.0.0.1 port=" + std::to_string(port_) + " user=postgres dbname=" + db +
           " connect_timeout=10";
  }

  // Creates database `db` (C collation, UTF-8) and returns its connection string.
  core::Result<std::string> CreateDatabase(const std::string& db) {
    BERTH_RETURN_IF_ERROR(Run({Bin("createdb"), "-h", "127.0.0.1", "-p", std::to_string(port_),
                               "-U", "postgres", "-T", "template0", "-E", "UTF8", "--locale=C", db},
                              false));
    return ConnInfo(db);
  }

 private:
  PostgresServer() = default;

  static std::string Bin(const char* name) { return std::string(kBinDir) + "/" + name; }

  // A port free on 127.0.0.1 now; Launch retries with another if the server cannot bind it.
  static int FreePort() {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(addr);
    int port = 0;
    if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &length) == 0) {
      port = ntohs(addr.sin_port);
    }
    if (fd >= 0) ::close(fd);
    return port;
  }

  std::string Tail(const std::string& path) const {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    std::string all = text.str();
    return all.size() > 1500 ? all.substr(all.size() - 1500) : all;
  }

  // Runs argv (as the postgres user when `as_server` and we are root), output to dir/cmd.log;
  // an error with the command and the log's tail unless it exits 0.
  core::Status Run(std::vector<std::string> argv, bool as_server) const {
    if (as_server && ::geteuid() == 0) {
      argv.insert(argv.begin(), {"/usr/sbin/runuser", "-u", "postgres", "--"});
    }
    std::string log = dir_ + "/cmd.log";
    // Everything the child needs is built before fork: only async-signal-safe calls after it.
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    pid_t pid = ::fork();
    if (pid < 0) {
      return core::Internal("fork failed running " + argv[0]);
    }
    if (pid == 0) {
      int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (out >= 0) {
        ::dup2(out, 1);
        ::dup2(out, 2);
      }
      ::execv(args[0], args.data());
      ::_exit(127);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::string command;
      for (const auto& a : argv) command += a + " ";
      return core::Error(core::ErrorCode::kUnavailable,
                         "throwaway PostgreSQL: `" + command + "` failed (status " +
                             std::to_string(status) + "); log:\n" + Tail(log));
    }
    return core::OkStatus();
  }

  core::Status Launch() {
    if (::access(Bin("pg_ctl").c_str(), X_OK) != 0) {
      return core::Error(core::ErrorCode::kUnavailable,
                         std::string("throwaway PostgreSQL: ") + kBinDir +
                             "/pg_ctl not found; install postgresql-15 "
                             "(scripts/install-deps.sh --test)");
    }
    std::string pattern = (std::filesystem::temp_directory_path() / "berth-pg-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      return core::Internal("throwaway PostgreSQL: mkdtemp failed");
    }
    dir_ = pattern;
    data_ = dir_ + "/data";
    if (::geteuid() == 0) {
      passwd* pw = ::getpwnam("postgres");
      if (pw == nullptr) {
        return core::Error(core::ErrorCode::kUnavailable,
                           "throwaway PostgreSQL: running as root needs the system user "
                           "\"postgres\" (created by Debian's postgresql package) to run the "
                           "server as; it does not exist");
      }
      if (::chown(dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
        return core::Internal("throwaway PostgreSQL: chown " + dir_ + " failed");
      }
    }
    BERTH_RETURN_IF_ERROR(Run({Bin("initdb"), "-D", data_, "-U", "postgres", "--auth=trust", "-E",
                               "UTF8", "--locale=C", "--no-sync"},
                              true));
    StartWatchdog();
    core::Status last = core::OkStatus();
    for (int attempt = 0; attempt < 3; ++attempt) {
      port_ = FreePort();
      std::string options = "-c listen_addresses=127.0.0.1 -p " + std::to_string(port_) + " -k " +
                            dir_ + " -c shared_buffers=32MB -c max_connections=200";
      // -w -t 30: pg_ctl waits, bounded, until the server accepts connections.
      last = Run({Bin("pg_ctl"), "-D", data_, "-l", dir_ + "/server.log", "-o", options, "-w", "-t",
                  "30", "start"},
                 true);
      if (last.ok()) {
        started_ = true;
        break;
      }
      (void)Run({Bin("pg_ctl"), "-D", data_, "-m", "immediate", "stop"}, true);
    }
    if (!started_) {
      return core::Error(last.error().code(),
                         last.error().message() + "\nserver log:\n" + Tail(dir_ + "/server.log"));
    }
    // Bounded readiness check over TCP, the way the store will connect.
    for (int i = 0; i < 50; ++i) {
      if (Run({Bin("pg_isready"), "-h", "127.0.0.1", "-p", std::to_string(port_), "-t", "2"}, false)
              .ok()) {
        return core::OkStatus();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return core::Error(core::ErrorCode::kUnavailable,
                       "throwaway PostgreSQL started but does not accept connections on "
                       "127.0.0.1:" +
                           std::to_string(port_) + "; server log:\n" + Tail(dir_ + "/server.log"));
  }

  // A shell that waits for this process's end of a pipe to close (on our exit, however it
  // happens), then stops the server and removes the directory. exec right after fork.
  void StartWatchdog() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      return;
    }
    std::string as = ::geteuid() == 0 ? "/usr/sbin/runuser -u postgres -- " : "";
    std::string script = "cat >/dev/null; " + as + Bin("pg_ctl") + " -D '" + data_ +
                         "' -m immediate stop >/dev/null 2>&1; rm -rf '" + dir_ + "'";
    pid_t pid = ::fork();
    if (pid == 0) {
      ::dup2(fds[0], 0);  // dup2 clears close-on-exec on the copy
      ::setsid();         // outlives a kill of our process group
      ::execl("/bin/sh", "sh", "-c", script.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(fds[0]);
    if (pid > 0) {
      watchdog_pid_ = pid;
      watchdog_fd_ = fds[1];
    } else {
      ::close(fds[1]);
    }
  }

  std::string dir_;
  std::string data_;
  int port_ = 0;
  bool started_ = false;
  pid_t watchdog_pid_ = -1;
  int watchdog_fd_ = -1;
};

}  // namespace berth::store::testing
