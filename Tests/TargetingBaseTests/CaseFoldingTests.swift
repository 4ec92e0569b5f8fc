import XCTest
@testable import TargetingBase

/// `CaseFolding.lowercase`: the full Unicode lowercase mapping with Final_Sigma.
final class CaseFoldingTests: XCTestCase {
    private func assertLowercase(_ text: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        let got = CaseFolding.lowercase(text)
        XCTAssertTrue(got.unicodeScalars.elementsEqual(expected.unicodeScalars),
                      "\(text.debugDescription) lowercased to \(got.debugDescription), expected \(expected.debugDescription)",
                      file: file, line: line)
    }

    func testSwiftsLowercasedHasNoFinalSigma() {
        // The reason for the function: `lowercased()` maps each scalar on its own.
        XCTAssertEqual(Array("ΟΔΟΣ".lowercased().unicodeScalars), Array("οδοσ".unicodeScalars))
    }

    func testSigmaAtTheEndOfAWordIsFinal() {
        assertLowercase("ΟΔΟΣ", "οδος")
        assertLowercase("ΟΔΟΣ ΚΑΙ", "οδος και")
        assertLowercase("Οδός Σ", "οδός σ")
    }

    func testSigmaBeforePunctuationIsFinal() {
        assertLowercase("ΑΣ.", "ας.")
        assertLowercase("ΑΣ, ΒΣ!", "ας, βς!")
        assertLowercase("ΑΣ-", "ας-")
    }

    func testALoneSigmaIsNotFinal() {
        assertLowercase("Σ", "σ")
        assertLowercase(" Σ ", " σ ")
        assertLowercase("1Σ", "1σ")
        assertLowercase(".Σ", ".σ")
    }

    func testSigmaBetweenLettersIsNotFinal() {
        assertLowercase("ΑΣΑ", "ασα")
        assertLowercase("ΣΑ", "σα")
        assertLowercase("ΑΣΣΑ", "ασσα")
        assertLowercase("ΑΣΣ", "ασς")
        // Any cased letter counts, not only Greek ones.
        assertLowercase("AΣb", "aσb")
        assertLowercase("AΣ", "aς")
    }

    func testCaseIgnorableMarksAreSkippedOnBothSides() {
        // U+0301 COMBINING ACUTE ACCENT and U+0027 APOSTROPHE are case-ignorable.
        assertLowercase("Α\u{301}Σ", "α\u{301}ς")
        assertLowercase("ΑΣ\u{301}", "ας\u{301}")
        assertLowercase("ΑΣ\u{301}Α", "ασ\u{301}α")
        assertLowercase("Α'Σ", "α'ς")
        assertLowercase("ΑΣ'Α", "ασ'α")
        assertLowercase("\u{301}Σ", "\u{301}σ")
        // A non-ignorable, uncased scalar stops the search.
        assertLowercase("Α1Σ", "α1σ")
        assertLowercase("ΑΣ1Α", "ας1α")
    }

    func testOtherTextIsTheFullLowercaseMapping() {
        assertLowercase("ÉCOLE", "école")
        assertLowercase("İstanbul", "i\u{307}stanbul")
        assertLowercase("STRASSE", "strasse")
        assertLowercase("σς", "σς")
        assertLowercase("", "")
        // Where no sigma is final, the mapping is Swift's, scalar by scalar.
        for text in ["ÉCOLE ΣΑ", "ǄEMAL Σ İ", "ﬁne ΣΑ STRAẞE", "ΣΣΑ ᾼ"] {
            XCTAssertEqual(Array(CaseFolding.lowercase(text).unicodeScalars), Array(text.lowercased().unicodeScalars), text)
        }
    }
}
