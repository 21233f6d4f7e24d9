// The conformance suite lives in its own small module, which the shipped command line links without the rest of the
// test kit; adapter authors who import the test kit get it too.
@_exported import IsobarConformance
