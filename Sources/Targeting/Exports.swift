// The front door: an app imports `Targeting` alone. These modules hold the public types of
// The library API (diagnostics and JSON values, profiles and the input handler, decisions and
// explanations); everything else in them is `package` and stays out of an app's sight.
@_exported import TargetingBase
@_exported import TargetingProfiles
@_exported import TargetingEngine
