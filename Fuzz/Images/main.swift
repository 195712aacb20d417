// libFuzzer runs the target (LLVMFuzzerTestOneInput, in the same module).
runFuzzTarget()
