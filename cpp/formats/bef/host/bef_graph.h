// One BEF function as the format-neutral graph inspection tools show
// (cpp/host/method_graph.h): a value per register, a node per kernel, and the
// region functions its kernels run as subgraphs.
//
// What a node says comes from the file's required sections, which
// BefFile::open validated. Names and types come from the optional
// AttributeTypes, AttributeNames and RegisterTypes sections (FORMAT-NOTES §8),
// which nothing validates and the executor never reads: each is checked
// whole before use and ignored when malformed, and attributes are decoded
// with bounded depth and a bounded total, so a hostile file only gets
// plainer names (`attr<i>`, `{"offset": N}`, an empty kind).
//
// Attribute values in GraphNode::attributes, keyed by the attribute's name
// (else "attr<i>"):
//   ints, floats, bool      42, 1.5, true (NaN and infinities as the strings
//                           "NaN", "Infinity", "-Infinity"; complex [re, im])
//   string                  "text"; past 4096 bytes {"string": prefix, "size": N}
//   array of scalars/types  [1, 2, 3], ["f32", "i64"]; past 256 elements
//                           {"dtype": "i32", "count": N}
//   type                    "f32" (the dtype's name)
//   dense                   {"dtype": "f32", "shape": [2, 2], "values": [...]}; past 16
//                           elements {"dtype", "shape", "count"} without values
//   shape                   {"shape": [2, -1, 3]}, unranked {"shape": null}
//                           (past 256 dimensions, dense and shape say "rank": N)
//   aggregate               [element, ...] each decoded by its tag; past 256
//                           elements {"count": N}; nested deeper than 8, raw
//   anything else           {"offset": N} (the byte offset in the Attributes
//                           section), with "bef_type": code when section 8 gave one
// All of a graph's attributes share one budget (about a million values):
// past it, attributes are shown raw and aggregate elements as null.
#pragma once

#include <cstdint>
#include <vector>

#include "cpp/formats/bef/bef_file.h"
#include "cpp/host/method_graph.h"
#include "cpp/runtime/core/result.h"

namespace tri::bef {

// The graph of function `function_index` of `file`, with every region
// function it reaches (call, if, while, repeat, ... kernels' function
// operands) as one of the returned graph's subgraphs, each listed once even
// when used by several kernels or recursively (a function that calls itself
// appears once among its own subgraphs). Unnamed functions are called
// "<first user>/region<function index>", or "function <index>" at the top.
// `source_name` names the file in errors, and in locations whose record has
// a line but no readable file name; nullptr or "" for none.
Result<host::MethodGraph> bef_function_graph(const BefFile& file, uint32_t function_index,
                                             const char* source_name);

// Every dense tensor attribute (DenseElementsAttr) of the file, which is
// where a TFRT program keeps its constant tensors: named "dense@<offset>"
// (the graph's attribute JSON carries the same name as "weight"). Needs
// the AttributeTypes section (it says which attributes are dense): without
// it, none.
std::vector<host::WeightInfo> bef_dense_weights(const BefFile& file);

}  // namespace tri::bef
