// The BEF executor: runs a program's functions as TFRT's BEFExecutor does.
//
// A function runs as a dataflow graph over registers: each kernel waits for
// a ready count (its operand count, or 1 for the pseudo kernel's trigger),
// runs when every operand is available, and publishes its results, which
// decrement their users. Ready kernels of the current stream run last-in
// first-out on the calling thread; other streams' kernels become work-queue
// tasks. Unavailable results resume their users from and_then callbacks.
// Kernels whose operands include an error are not called; their results
// become that error.
//
// This executor is not the .pte interpreter (cpp/runtime/executor/method.h),
// which runs a linear instruction list over a planned arena; the two share
// the core types, the platform layer, the allocators and the kernel library.
#pragma once

#include <cstdint>

#include "cpp/formats/bef/executor/bef_program.h"
#include "cpp/runtime/async/kernel_frame.h"

namespace tri::bef {

// One top-level run of a program: TFRT's execution context plus its resource
// context (tfrt.once's cache lives here, so every run starts fresh).
class BefRunner final : public async::FunctionCaller {
 public:
  BefRunner(const BefProgram& program, async::HostContext& host)
      : program_(program), host_(host) {}
  ~BefRunner();

  const BefProgram& program() const { return program_; }
  async::HostContext& host() const { return host_; }

  uint32_t num_arguments(uint32_t function) const override;
  uint32_t num_results(uint32_t function) const override;
  void call(uint32_t function, Span<async::AsyncValue* const> arguments,
            Span<async::AsyncValue*> results) override;
  Span<async::AsyncValue* const> once_results(uint32_t function) override;
  void set_once_results(uint32_t function, Span<async::AsyncValue* const> results) override;

 private:
  struct OnceEntry {
    uint32_t function;
    Span<async::AsyncValue* const> results;
    OnceEntry* next;
  };

  const BefProgram& program_;
  async::HostContext& host_;
  OnceEntry* once_ = nullptr;
};

}  // namespace tri::bef
