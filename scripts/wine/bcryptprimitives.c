/* For testing under Wine only, never shipped: Debian's Wine 8.0 lacks bcryptprimitives.dll, whose
 * ProcessPrng Rust's standard library imports on Windows (for HashMap's random keys). This stand-in
 * fills the buffer from RtlGenRandom (advapi32's SystemFunction036), which Wine has. Built by
 * scripts/test-windows with mingw-w64 and placed beside the .exe in a scratch folder. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
