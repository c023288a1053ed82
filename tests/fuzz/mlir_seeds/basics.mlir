func.func @fib(%arg: i32) -> i32 {
  %one = tfrt.constant.i32 1
  %cond = "tfrt.lessequal.i32"(%arg, %one) : (i32, i32) -> (i1)
  %res = tfrt.if %cond, %arg : (i32) -> i32 {
    tfrt.return %arg : i32
  } else {
    %min_one = tfrt.constant.i32 -1
    %n = tfrt.add.i32 %arg, %min_one
    %f = tfrt.call @fib(%n) : (i32) -> (i32)
    %sum = tfrt.add.i32 %f, %arg
    tfrt.return %sum : i32
  }
  tfrt.return %res : i32
}

func.func @main() -> (i32, f32) {
  %ch0 = tfrt.new.chain
  %n = tfrt.constant.i32 5
  %r = tfrt.call @fib(%n) : (i32) -> (i32)
  %ch1 = tfrt.print.i32 %r, %ch0
  %x = tfrt.constant.f32 1.5
  %q, %rem = tfrt.div.i32 %r, %n
  %c = tfrt.repeat.i32 %n, %ch1 : !tfrt.chain {
    %v = tfrt.constant.i64 7
    %ch2 = tfrt.print.i64 %v, %ch1
    tfrt.return %ch2 : !tfrt.chain
  }
  "simple.op"() {a = [1 : i32, 2 : i32], b = "text", c = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>, d = [["s", [1 : i64]], [1.0 : f32]]} : () -> ()
  tfrt.return %q, %x : i32, f32
}
