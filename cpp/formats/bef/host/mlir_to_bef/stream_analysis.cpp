#include "cpp/formats/bef/host/mlir_to_bef/stream_analysis.h"

#include <algorithm>
#include <cstddef>
#include <unordered_map>
#include <unordered_set>

namespace tri::bef {

namespace {

// An insertion-ordered set, as llvm::SetVector iterates. Erased entries
// leave a hole so that membership stays O(1) on large blocks.
class OrderedIntSet {
 public:
  bool insert(int value) {
    if (!index_.emplace(value, items_.size()).second) return false;
    items_.push_back(value);
    return true;
  }
  void erase(int value) {
    auto it = index_.find(value);
    if (it == index_.end()) return;
    items_[it->second] = kHole;
    index_.erase(it);
  }
  bool contains(int value) const { return index_.count(value) != 0; }
  std::vector<int> items() const {
    std::vector<int> out;
    out.reserve(index_.size());
    for (int v : items_) {
      if (v != kHole) out.push_back(v);
    }
    return out;
  }

 private:
  static constexpr int kHole = -1;  // stream and op ids are never negative
  std::vector<int> items_;
  std::unordered_map<int, size_t> index_;
};

// The iteration order of llvm::SmallDenseSet<int, 2> after a run of inserts:
// buckets hashed by val * 37 with quadratic probing, two inline buckets that
// grow to 64 (then doubling) once three quarters would be full. TFRT
// iterates such a set to pick the order streams are merged in.
class LlvmSmallDenseIntSet {
 public:
  void insert(int value) {
    if (find(value) >= 0) return;
    const size_t needed = count_ + 1;
    if (needed * 4 >= buckets_.size() * 3) {
      grow(buckets_.size() <= kInline ? std::max<size_t>(64, next_power_of_two(buckets_.size() * 2 - 1))
                                      : buckets_.size() * 2);
    }
    place(value);
    ++count_;
  }
  std::vector<int> in_order() const {
    std::vector<int> out;
    for (const Bucket& b : buckets_) {
      if (b.used) out.push_back(b.value);
    }
    return out;
  }

 private:
  struct Bucket {
    bool used = false;
    int value = 0;
  };
  static constexpr size_t kInline = 2;

  static size_t next_power_of_two(size_t a) {
    size_t p = 1;
    while (p <= a) p <<= 1;
    return p;
  }
  static size_t hash(int value) {
    return static_cast<unsigned>(value) * 37u;
  }
  int find(int value) const {
    const size_t mask = buckets_.size() - 1;
    size_t bucket = hash(value) & mask;
    for (size_t probe = 1; probe <= buckets_.size(); ++probe) {
      if (!buckets_[bucket].used) return -1;
      if (buckets_[bucket].value == value) return static_cast<int>(bucket);
      bucket = (bucket + probe) & mask;
    }
    return -1;
  }
  void place(int value) {
    const size_t mask = buckets_.size() - 1;
    size_t bucket = hash(value) & mask;
    for (size_t probe = 1; buckets_[bucket].used; ++probe) bucket = (bucket + probe) & mask;
    buckets_[bucket].used = true;
    buckets_[bucket].value = value;
  }
  void grow(size_t size) {
    std::vector<Bucket> old = std::move(buckets_);
    buckets_.assign(size, Bucket());
    for (const Bucket& b : old) {
      if (b.used) place(b.value);
    }
  }

  std::vector<Bucket> buckets_ = std::vector<Bucket>(kInline);
  size_t count_ = 0;
};

class Analysis {
 public:
  Analysis(const std::vector<StreamOp>& ops, const StreamOptions& options)
      : ops_(ops), options_(options), root_(static_cast<int>(ops.size())), info_(ops.size() + 1) {}

  StreamAssignment run() {
    schedule_forward();
    for (int i = root_ - 1; i >= 0; --i) build_stream(i);
    build_stream(root_);
    StreamAssignment out;
    out.root_stream = info_[static_cast<size_t>(root_)].stream;
    for (int i = 0; i < root_; ++i) {
      resolve(i);
      out.op_streams.push_back(info_[static_cast<size_t>(i)].stream);
    }
    return out;
  }

 private:
  struct OpInfo {
    int stream = -1;
    int64_t cost = 0;
    std::vector<int> scheduled_users;
    OrderedIntSet side_uses;
  };
  struct StreamInfo {
    int64_t cost = 0;
    int merge_to = -1;
    OrderedIntSet side_deps;
  };

  int64_t threshold() const { return options_.cost_threshold; }
  OpInfo& op(int i) { return info_[static_cast<size_t>(i)]; }
  StreamInfo& stream(int id) { return streams_[static_cast<size_t>(id)]; }

  void schedule_forward() {
    std::vector<int64_t> cost_from_root(info_.size(), 0);
    op(root_).cost = 1;
    cost_from_root[static_cast<size_t>(root_)] = 1;
    for (int i = 0; i < root_; ++i) {
      const StreamOp& s = ops_[static_cast<size_t>(i)];
      op(i).cost = s.cost;
      int64_t from_root = s.cost;
      if (s.operand_defs.empty()) {
        op(root_).scheduled_users.push_back(i);
      } else {
        int parent = root_;
        int64_t parent_cost = 0;
        for (size_t k = 0; k < s.operand_defs.size(); ++k) {
          const int def = s.operand_defs[k] < 0 ? root_ : s.operand_defs[k];
          const int64_t def_cost = cost_from_root[static_cast<size_t>(def)];
          if (k >= s.operand_is_chain.size() || !s.operand_is_chain[k]) {
            op(def).side_uses.insert(i);
          }
          if (def_cost > parent_cost) {
            parent = def;
            parent_cost = def_cost;
          }
        }
        op(parent).side_uses.erase(i);
        op(parent).scheduled_users.push_back(i);
        from_root += parent_cost;
      }
      cost_from_root[static_cast<size_t>(i)] = from_root;
    }
  }

  int latest(int id) {
    while (stream(id).merge_to >= 0) id = stream(id).merge_to;
    return id;
  }

  void resolve(int i) {
    const int final_id = latest(op(i).stream);
    int id = op(i).stream;
    while (stream(id).merge_to >= 0) {
      const int next = stream(id).merge_to;
      stream(id).merge_to = final_id;
      id = next;
    }
    op(i).stream = final_id;
  }

  void merge(int from, int to) {
    for (int id : stream(from).side_deps.items()) {
      id = latest(id);
      if (id != to) stream(to).side_deps.insert(id);
    }
    stream(to).side_deps.erase(from);
    stream(to).cost += stream(from).cost;
    stream(from).merge_to = to;
  }

  void assign(int i, int id) {
    op(i).stream = id;
    stream(id).cost += op(i).cost;
    for (int user : op(i).side_uses.items()) {
      resolve(user);
      const int user_stream = op(user).stream;
      if (user_stream != id) {
        stream(id).side_deps.insert(user_stream);
        stream(user_stream).side_deps.insert(id);
      }
    }
  }

  int new_stream() {
    streams_.emplace_back();
    return static_cast<int>(streams_.size()) - 1;
  }

  void merge_inter_dependent(std::vector<int>* child_ids) {
    const std::vector<int> candidates = *child_ids;
    const std::unordered_set<int> candidate_set(candidates.begin(), candidates.end());
    std::unordered_set<int> stale;
    for (int child : candidates) {
      if (stale.count(child) != 0) continue;
      LlvmSmallDenseIntSet to_merge;
      for (int id : stream(child).side_deps.items()) {
        if (candidate_set.count(id) == 0) continue;
        id = latest(id);
        if (id == child || stream(id).cost >= threshold()) continue;
        to_merge.insert(id);
      }
      for (int id : to_merge.in_order()) {
        if (stream(id).merge_to >= 0) continue;
        merge(id, child);
        stale.insert(id);
        if (stream(child).cost >= threshold()) break;
      }
    }
    child_ids->erase(std::remove_if(child_ids->begin(), child_ids->end(),
                                    [&](int id) { return stale.count(id) != 0; }),
                     child_ids->end());
  }

  void build_stream(int i) {
    if (op(i).scheduled_users.empty()) {
      assign(i, new_stream());
      return;
    }
    std::vector<int> child_ids;
    for (int user : op(i).scheduled_users) child_ids.push_back(op(user).stream);
    if (options_.merge_inter_dependent_streams && child_ids.size() > 1) {
      merge_inter_dependent(&child_ids);
    }
    int max_stream = -1;
    int64_t max_cost = 0;
    auto consider = [&](int64_t cost, int id) {
      if ((options_.upper_cost_threshold < 0 || cost < options_.upper_cost_threshold) &&
          max_cost < cost) {
        max_cost = cost;
        max_stream = id;
      }
    };
    std::vector<int> merged;
    for (int child : child_ids) {
      if (stream(child).cost >= threshold()) {
        consider(stream(child).cost, child);
        continue;
      }
      if (merged.empty() || stream(merged.back()).cost >= threshold()) {
        merged.push_back(child);
      } else {
        merge(child, merged.back());
      }
      consider(stream(merged.back()).cost, merged.back());
    }
    if (max_stream < 0) {
      assign(i, new_stream());
      return;
    }
    assign(i, max_stream);
    // At most one cheap child stream is left, the last merged one; it joins
    // the op's stream.
    if (!merged.empty() && stream(merged.back()).cost < threshold() &&
        max_stream != merged.back()) {
      merge(merged.back(), op(i).stream);
    }
  }

  const std::vector<StreamOp>& ops_;
  const StreamOptions& options_;
  const int root_;
  std::vector<OpInfo> info_;
  std::vector<StreamInfo> streams_;
};

}  // namespace

StreamAssignment analyze_streams(const std::vector<StreamOp>& ops, const StreamOptions& options) {
  return Analysis(ops, options).run();
}

}  // namespace tri::bef
