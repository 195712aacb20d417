// Nothing to compile: the module only declares libFuzzer's LLVMFuzzerRunDriver (include/),
// which -sanitize=fuzzer links in.
#include "CLibFuzzer.h"
