// Text output for the tensor kernels without heap strings: a line printed
// through HostContext::print, or a message built in a fixed buffer. Shapes
// and tensors come from the file and can be any length; HostContext::print
// formats at most 1 KiB at a time, so long lines go out in pieces.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpp/runtime/async/host_context.h"
#include "cpp/runtime/core/error.h"

namespace tri::tfrt_kernels {

class TextOut {
 public:
  virtual void write(const char* data, size_t size) = 0;
  void write(const char* text);
  // One short piece (a number, a word): at most 127 characters are kept.
  void format(const char* format, ...) TRI_PRINTF_LIKE(2, 3);

 protected:
  ~TextOut() = default;
};

// Buffers text and hands it to the host's print hook, in pieces when long.
class PrintOut final : public TextOut {
 public:
  explicit PrintOut(async::HostContext& host) : host_(host) {}
  PrintOut(const PrintOut&) = delete;
  PrintOut& operator=(const PrintOut&) = delete;
  ~PrintOut() { flush(); }

  using TextOut::write;
  void write(const char* data, size_t size) override;
  void flush();

 private:
  async::HostContext& host_;
  char buffer_[512];
  size_t used_ = 0;
};

// Builds a NUL-terminated message in a caller's buffer; text past its end is
// dropped and the message ends in "..." instead.
class BufferOut final : public TextOut {
 public:
  BufferOut(char* buffer, size_t capacity);
  using TextOut::write;
  void write(const char* data, size_t size) override;
  const char* c_str() const { return buffer_; }

 private:
  char* buffer_;
  size_t capacity_;
  size_t used_ = 0;
  bool truncated_ = false;
};

}  // namespace tri::tfrt_kernels
