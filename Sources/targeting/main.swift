import Foundation
import TargetingCLI

exit(TargetingCLI.run(CommandLine.arguments, io: .standard))
