// Fibonacci numbers with TFRT's basic kernels: one of the web viewer's samples
// (tools/export/samples/README.md; copied to build/samples/fib.mlir).
//
//   node bin/trident.mjs run build/samples/fib.mlir
//
// @forward prints F(0) .. F(49) as int64 with a loop, then F(20) = 6765 as
// int32, computed by @fib's recursion. The prints are ordered by a chain that
// every print consumes and produces.

// F(n) by the definition: n for n <= 1, else F(n - 1) + F(n - 2).
func.func @fib(%n: i32) -> i32 {
  %one = tfrt.constant.i32 1
  %base = "tfrt.lessequal.i32"(%n, %one) : (i32, i32) -> (i1)
  %result = tfrt.if %base, %n : (i32) -> (i32) {
    tfrt.return %n : i32
  } else {
    %minus_one = tfrt.constant.i32 -1
    %minus_two = tfrt.constant.i32 -2
    %n1 = tfrt.add.i32 %n, %minus_one
    %n2 = tfrt.add.i32 %n, %minus_two
    %f1 = tfrt.call @fib(%n1) : (i32) -> (i32)
    %f2 = tfrt.call @fib(%n2) : (i32) -> (i32)
    %sum = tfrt.add.i32 %f1, %f2
    tfrt.return %sum : i32
  }
  tfrt.return %result : i32
}

func.func @forward() {
  %ch0 = tfrt.new.chain

  // Iteration i receives (chain, F(i), F(i+1)), prints F(i) and passes on
  // (chain, F(i+1), F(i) + F(i+1)). F(49) = 7778742049 needs 64 bits.
  %count = tfrt.constant.i32 50
  %f0 = tfrt.constant.i64 0
  %f1 = tfrt.constant.i64 1
  %ch1, %last, %next = tfrt.repeat.i32 %count, %ch0, %f0, %f1 : !tfrt.chain, i64, i64 {
    %printed = tfrt.print.i64 %f0, %ch0
    %sum = tfrt.add.i64 %f0, %f1
    tfrt.return %printed, %f1, %sum : !tfrt.chain, i64, i64
  }

  %n = tfrt.constant.i32 20
  %f20 = tfrt.call @fib(%n) : (i32) -> (i32)
  %ch2 = tfrt.print.i32 %f20, %ch1

  tfrt.return
}
