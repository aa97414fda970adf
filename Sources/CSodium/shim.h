#ifndef LAUNCHAD_SODIUM_SHIM_H
#define LAUNCHAD_SODIUM_SHIM_H
#include <sodium.h>
#include "../CLazyLoad/lazy_load.h"

/* libsodium is opened the first time a manifest's signature is checked (Sources/CLazyLoad/
   lazy_load.h says how): a screen that trusts no key (no --trust-key) never loads it, nor does
   any command but prefetch, launch and manifest verify with one. Swift calls
   libsodium.crypto_sign_verify_detached() and so on (Sources/LaunchAdDelivery/Signing/Sodium.swift). */
#define LAUNCHAD_LIBSODIUM(F) \
    F(sodium_init) \
    F(crypto_generichash) \
    F(crypto_sign_verify_detached)
LAUNCHAD_LAZY_LIBRARY(libsodium, "libsodium.so.23", LAUNCHAD_LIBSODIUM)

#endif
