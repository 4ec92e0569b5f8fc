import Foundation
import TargetingBase

extension JSONValue {
    /// Converts a value as an SDK callback delivers it: String, Bool, Int/Int8…Int64/UInt…, Double, Float, arrays of those ([String], [Int], [any Sendable]…), dictionaries [String: any Sendable], nil/NSNull → .null. A Swift Bool stays .bool and a Swift Int stays .number (never confuse them). Returns nil for anything else (e.g. Date, Data, custom types).
    ///
    /// Non-finite numbers (NaN, ±infinity) have no JSON form and also give nil. A Float is converted
    /// through its shortest decimal form, so `Float(0.1)` becomes `0.1` rather than `0.10000000149011612`.
    /// Dictionary members are sorted by key (UTF-8 byte order) because dictionaries have no order.
    package init?(sdkValue: any Sendable) {
        guard let converted = JSONValue.convertSDKValue(sdkValue) else { return nil }
        self = converted
    }

    /// Converts an SDK params dictionary into an object with members sorted by key; nil if some value cannot be converted.
    package init?(sdkParams: [String: any Sendable]) {
        var members: [JSONMember] = []
        members.reserveCapacity(sdkParams.count)
        for (key, value) in sdkParams {
            guard let converted = JSONValue.convertSDKValue(value) else { return nil }
            members.append(JSONMember(key: key, value: converted))
        }
        self = .object(JSONWriter.sortedByKeyBytes(members))
    }

    /// Converts one SDK value; `Any` because nested collections arrive type-erased.
    static func convertSDKValue(_ value: Any) -> JSONValue? {
        if value is NSNull {
            return .null
        }
        // NSNumber first: a dynamic cast would happily turn any NSNumber into Bool or Int.
        // The exact-class test keeps Swift Bool/Int values (which also bridge to NSNumber) out of this branch.
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            if isBooleanNumber(number) {
                return .bool(number.boolValue)
            }
            return finite(number.doubleValue)
        }
        switch value {
        case let flag as Bool:
            return .bool(flag)
        case let text as String:
            return .string(text)
        case let number as Int:
            return .number(Double(number))
        case let number as Int8:
            return .number(Double(number))
        case let number as Int16:
            return .number(Double(number))
        case let number as Int32:
            return .number(Double(number))
        case let number as Int64:
            return .number(Double(number))
        case let number as UInt:
            return .number(Double(number))
        case let number as UInt8:
            return .number(Double(number))
        case let number as UInt16:
            return .number(Double(number))
        case let number as UInt32:
            return .number(Double(number))
        case let number as UInt64:
            return .number(Double(number))
        case let number as Double:
            return finite(number)
        case let number as Float:
            guard number.isFinite else { return nil }
            return finite(Double(number.description) ?? Double(number))
        case let number as CGFloat:
            return finite(Double(number))
        case let elements as [Any]:
            var converted: [JSONValue] = []
            converted.reserveCapacity(elements.count)
            for element in elements {
                guard let item = convertSDKValue(element) else { return nil }
                converted.append(item)
            }
            return .array(converted)
        case let dictionary as [String: Any]:
            var members: [JSONMember] = []
            members.reserveCapacity(dictionary.count)
            for (key, element) in dictionary {
                guard let item = convertSDKValue(element) else { return nil }
                members.append(JSONMember(key: key, value: item))
            }
            return .object(JSONWriter.sortedByKeyBytes(members))
        default:
            break
        }
        // An Optional that was not unwrapped by the casts above: nil becomes null, a wrapped value is converted.
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return .null }
            return convertSDKValue(wrapped)
        }
        return nil
    }

    private static func finite(_ number: Double) -> JSONValue? {
        number.isFinite ? .number(number) : nil
    }

    /// Whether an NSNumber holds a boolean rather than an integer 0 or 1.
    ///
    /// A boolean NSNumber reports the Objective-C type encoding "c" (char), but so does an NSNumber
    /// made from an Int8 on Apple platforms, so the encoding alone is not enough. Booleans are instances
    /// of the dedicated boolean class, and `NSNumber(value: true)` / `NSNumber(value: false)` are shared
    /// instances. Observed on Linux (swift-corelibs-foundation, Swift 6.3): `NSNumber(value: true)` is a
    /// `__NSCFBoolean` with objCType "c" and is the same instance on every call, while `NSNumber(value: 1)`
    /// and `NSNumber(value: Int8(1))` are plain `NSNumber`s with objCType "i". Apple platforms use the
    /// `kCFBooleanTrue` / `kCFBooleanFalse` singletons, which also have type "c" and their own class.
    package static func isBooleanNumber(_ number: NSNumber) -> Bool {
        guard String(cString: number.objCType) == "c" else { return false }
        let trueNumber = NSNumber(value: true)
        let falseNumber = NSNumber(value: false)
        if number === trueNumber || number === falseNumber {
            return true
        }
        return type(of: number) == type(of: trueNumber)
    }
}
