/* Wine 8 in Debian lacks bcryptprimitives.dll, whose ProcessPrng Rust's standard library
 * loads for random numbers (its HashMap seeds). This stand-in, for the Wine tests only, asks
 * the system's generator that Wine does have (advapi32's RtlGenRandom). */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
