// A hub for the kube client's tests: a RestHandler over a SqliteStore in a temporary
// directory, optionally served by an HttpServer on 127.0.0.1 (any free port), plus the bodies
// the tests create. The validator refuses a Job whose spec.parallelism is negative (a 422 at
// that field), as io's validator would refuse a bad field.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "server/http/http_server.h"
#include "server/kube/in_process_transport.h"
#include "server/kube/kube_client.h"
#include "server/rest/rest_handler.h"
#include "store/sqlite_store.h"
#include "store/temp_dir.h"

namespace berth::server::kube::testing {

class NegativeParallelismValidator : public ObjectValidator {
 public:
  std::vector<core::Error> Validate(const model::KindInfo& kind, const Json& object) const override {
    std::vector<core::Error> out;
    if (kind.kind == "Job" && object.contains("spec") && object["spec"].is_object() &&
        object["spec"].value("parallelism", 0) < 0) {
      out.push_back(core::InvalidArgument("must be greater than or equal to 0",
                                          core::Location{"", "", "spec.parallelism"}));
    }
    return out;
  }
};

inline Json JobBody(const std::string& name, int parallelism = 1,
                    const std::string& ns = "default") {
  return Json::parse(R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":")" + name +
                     R"(","namespace":")" + ns + R"(","labels":{"app":"train"}},"spec":{"parallelism":)" +
                     std::to_string(parallelism) +
                     R"(,"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}})");
}

inline Json NodeBody(const std::string& name, const std::string& zone = "a") {
  return Json::parse(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":")" + name +
                     R"(","labels":{"topology.kubernetes.io/zone":")" + zone +
                     R"("}},"status":{"capacity":{"cpu":"8"}}})");
}

class TestHub {
 public:
  explicit TestHub(std::chrono::milliseconds bookmark_interval = std::chrono::milliseconds(60'000)) {
    auto opened = store::SqliteStore::Open(dir_.Sub("db"));
    EXPECT_TRUE(opened) << opened.error().ToString();
    if (!opened) return;
    store_ = std::move(opened).value();
    RestOptions options;
    options.bookmark_interval = bookmark_interval;
    handler_ = std::make_unique<RestHandler>(*store_, feed_, &validator_, options);
    EXPECT_TRUE(handler_->EnsureSystemNamespaces().ok());
  }
  ~TestHub() {
    if (http_) http_->Stop();
  }

  bool ok() const { return handler_ != nullptr; }
  store::Store& store() { return *store_; }
  ChangeFeed& feed() { return feed_; }
  RestHandler& handler() { return *handler_; }
  const std::string& dir() const { return dir_.path(); }

  std::unique_ptr<Transport> InProcess() { return std::make_unique<InProcessTransport>(*handler_); }

  // Serves the handler over HTTP(S); the server's URL, or "" (and a test failure) when it
  // cannot start.
  std::string Serve(HttpServerOptions options = {}) {
    options.host = "127.0.0.1";
    options.port = 0;
    options.read_timeout = std::chrono::seconds(5);
    options.write_timeout = std::chrono::seconds(5);
    auto started = HttpServer::Start(*handler_, feed_, std::move(options), [] { return true; });
    EXPECT_TRUE(started) << started.error().ToString();
    if (!started) return "";
    http_ = std::move(started).value();
    return std::string(http_->tls() ? "https" : "http") + "://127.0.0.1:" +
           std::to_string(http_->port());
  }

 private:
  store::testing::TempDir dir_;
  std::unique_ptr<store::SqliteStore> store_;
  ChangeFeed feed_;
  NegativeParallelismValidator validator_;
  std::unique_ptr<RestHandler> handler_;
  std::unique_ptr<HttpServer> http_;
};

}  // namespace berth::server::kube::testing
