func.func @fine(%x: memref<?xf32>) {
  return
}
func.func @dot(%a: vector<4xf32>) -> f32 {
  %r = vector.reduction <add>, %a : vector<4xf32> into f32
  return %r : f32
}
