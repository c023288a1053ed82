// Inspection over real files: every corpus program that loads gives a graph
// for each method (one node per instruction of a .pte, one per graph node of
// a .pt2), its weights list, and each weight's bytes; a delegate's graph is
// nested with its own nodes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cpp/host/host_model.h"
#include "tests/cpp/support/shared_corpus.h"

namespace tri::host {
namespace {

using ::tri::testing::list_files;
using ::tri::testing::read_file;
using ::tri::testing::shared_dir;

// Checks what every graph must hold: ports and edges name values that
// exist, subgraph indices are in range, weights resolve.
void check_graph(const nlohmann::json& g, size_t num_subgraphs) {
  const size_t num_values = g["values"].size();
  for (const auto& node : g["nodes"]) {
    for (const char* side : {"inputs", "outputs"}) {
      for (const auto& port : node[side]) {
        if (port.contains("value")) EXPECT_LT(port["value"].get<size_t>(), num_values);
      }
    }
    if (node.contains("subgraphs")) {
      for (const auto& s : node["subgraphs"]) EXPECT_LT(s.get<size_t>(), num_subgraphs);
    }
  }
  for (const auto& e : g["edges"]) {
    EXPECT_LT(e["value"].get<size_t>(), num_values);
    EXPECT_LT(e["from"].get<int64_t>(), e["to"].get<int64_t>());
  }
}

void check_model(HostModel& model, const std::string& path) {
  SCOPED_TRACE(path);
  const size_t methods = model.num_methods();
  for (size_t m = 0; m < methods; ++m) {
    Result<std::string> text = model.graph_json(m);
    ASSERT_TRUE(text.ok()) << last_error_message();
    const nlohmann::json g = nlohmann::json::parse(*text);
    check_graph(g, g["subgraphs"].size());
    for (const auto& sub : g["subgraphs"]) check_graph(sub, g["subgraphs"].size());
    if (std::string(model.format()) != "pt2") {
      EXPECT_EQ(g["nodes"].size(), model.program().num_instructions(m));
    }
  }
  Result<std::string> weights = model.weights_json();
  ASSERT_TRUE(weights.ok()) << last_error_message();
  const nlohmann::json list = nlohmann::json::parse(*weights);
  for (const auto& w : list["weights"]) {
    Result<const WeightInfo*> one = model.weight(w["name"].get<std::string>());
    ASSERT_TRUE(one.ok()) << w["name"] << ": " << last_error_message();
    EXPECT_EQ((*one)->nbytes, w["nbytes"].get<uint64_t>());
    EXPECT_NE((*one)->data, nullptr);
  }
}

TEST(Inspect, EveryCorpusProgramThatLoads) {
  TRI_REQUIRE_SHARED();
  size_t inspected = 0;
  for (const char* dir : {"/corpus/pte", "/corpus/pt2"}) {
    for (const std::string& path : list_files(shared_dir() + dir, {".pte", ".pt2", ".bpte"})) {
      const std::vector<uint8_t> bytes = read_file(path);
      HostModel model;
      if (model.load(OwnedBytes::copy_of(bytes.data(), bytes.size())) != Error::Ok) continue;
      check_model(model, path);
      ++inspected;
    }
  }
  EXPECT_GT(inspected, 20u);
}

TEST(Inspect, DelegateGraphNestsItsNodesAndWeights) {
  TRI_REQUIRE_SHARED();
  bool found = false;
  for (const std::string& path : list_files(shared_dir() + "/corpus/pte", {".pte"})) {
    const std::vector<uint8_t> bytes = read_file(path);
    HostModel model;
    if (model.load(OwnedBytes::copy_of(bytes.data(), bytes.size())) != Error::Ok) continue;
    const nlohmann::json g = nlohmann::json::parse(*model.graph_json(0));
    for (const auto& node : g["nodes"]) {
      if (node["op"] != "XnnpackBackend" || !node.contains("subgraphs")) continue;
      const auto& sub = g["subgraphs"][node["subgraphs"][0].get<size_t>()];
      EXPECT_EQ(sub["kind"], "delegate");
      EXPECT_GT(sub["nodes"].size(), 0u);
      // The call's outputs are the delegate graph's outputs, one for one.
      EXPECT_EQ(node["outputs"].size(), sub["outputs"].size()) << path;
      found = true;
    }
  }
  EXPECT_TRUE(found) << "no XNNPACK program in the corpus";
}

}  // namespace
}  // namespace tri::host
