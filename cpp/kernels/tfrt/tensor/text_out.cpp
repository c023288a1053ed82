#include "cpp/kernels/tfrt/tensor/text_out.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace tri::tfrt_kernels {

void TextOut::write(const char* text) { write(text, std::strlen(text)); }

void TextOut::format(const char* format, ...) {
  char piece[128];
  va_list args;
  va_start(args, format);
  const int n = std::vsnprintf(piece, sizeof(piece), format, args);
  va_end(args);
  if (n <= 0) return;
  const size_t size = static_cast<size_t>(n) < sizeof(piece) ? static_cast<size_t>(n) : sizeof(piece) - 1;
  write(piece, size);
}

void PrintOut::write(const char* data, size_t size) {
  while (size > 0) {
    if (used_ == sizeof(buffer_)) flush();
    size_t n = sizeof(buffer_) - used_;
    if (n > size) n = size;
    std::memcpy(buffer_ + used_, data, n);
    used_ += n;
    data += n;
    size -= n;
  }
}

void PrintOut::flush() {
  if (used_ == 0) return;
  host_.print("%.*s", static_cast<int>(used_), buffer_);
  used_ = 0;
}

BufferOut::BufferOut(char* buffer, size_t capacity) : buffer_(buffer), capacity_(capacity) {
  if (capacity_ > 0) buffer_[0] = '\0';
}

void BufferOut::write(const char* data, size_t size) {
  if (truncated_ || capacity_ < 4) return;
  // Keep room for "..." and the NUL.
  const size_t room = capacity_ - 4 - used_;
  if (size > room) {
    std::memcpy(buffer_ + used_, data, room);
    used_ += room;
    std::memcpy(buffer_ + used_, "...", 4);
    used_ += 3;
    truncated_ = true;
    return;
  }
  std::memcpy(buffer_ + used_, data, size);
  used_ += size;
  buffer_[used_] = '\0';
}

}  // namespace tri::tfrt_kernels
