#pragma once
// SHA-256 through OpenSSL's libcrypto (EVP): a well-kept implementation, not
// ours. Hex digests, lower case.

#include <memory>
#include <string>
#include <string_view>

namespace roofline::output {

class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(Sha256 const&) = delete;
    Sha256& operator=(Sha256 const&) = delete;
    void update(std::string_view data);
    std::string hex();  // finishes the digest

private:
    struct Context;
    std::unique_ptr<Context> context_;
};

std::string sha256_hex(std::string_view data);
// The digest of a file's bytes; throws std::runtime_error if it cannot be read.
std::string sha256_file(std::string const& path);

}  // namespace roofline::output
