import TargetingFuzzSupport
@main enum Stub { static func main() { FuzzDriver.run { _, _ in 0 } } }
