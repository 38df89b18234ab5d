// json_schema_check SCHEMA.json [FILE|-] [--lines]: validates a JSON document (or, with --lines,
// every non-empty line of JSON Lines) against a schema of tests/schemas/. Prints each violation
// as "FILE: /pointer: what"; exit 0 valid, 1 invalid, 2 bad usage or unreadable schema.
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>

#include "../common/json_schema.hpp"

namespace {

std::string read_all(std::istream& in) {
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

int check(const roofkit::testing::json_schema& schema, const std::string& text,
          const std::string& where) {
  const auto doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded()) {
    std::cerr << where << ": not valid JSON: " << text.substr(0, 200) << '\n';
    return 1;
  }
  const auto errors = schema.validate(doc);
  for (const auto& e : errors)
    std::cerr << where << ": " << e << '\n';
  return errors.empty() ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  std::string schema_path, input_path = "-";
  bool lines = false;
  int positional = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--lines")
      lines = true;
    else if (positional == 0 && ++positional)
      schema_path = a;
    else if (positional == 1 && ++positional)
      input_path = a;
    else {
      std::cerr << "usage: json_schema_check SCHEMA.json [FILE|-] [--lines]\n";
      return 2;
    }
  }
  if (schema_path.empty()) {
    std::cerr << "usage: json_schema_check SCHEMA.json [FILE|-] [--lines]\n";
    return 2;
  }
  std::ifstream schema_file(schema_path);
  const auto schema_json = nlohmann::json::parse(read_all(schema_file), nullptr, false);
  if (!schema_file || schema_json.is_discarded()) {
    std::cerr << schema_path << ": cannot read the schema\n";
    return 2;
  }
  try {
    const roofkit::testing::json_schema schema(schema_json);
    std::string text;
    if (input_path == "-") {
      text = read_all(std::cin);
    } else {
      std::ifstream in(input_path, std::ios::binary);
      if (!in) {
        std::cerr << input_path << ": cannot read\n";
        return 1;
      }
      text = read_all(in);
    }
    if (!lines)
      return check(schema, text, input_path);
    std::istringstream in(text);
    std::string line;
    int status = 0, n = 0, documents = 0;
    while (std::getline(in, line)) {
      ++n;
      if (line.find_first_not_of(" \t\r") == std::string::npos)
        continue;
      ++documents;
      status |= check(schema, line, input_path + ":" + std::to_string(n));
    }
    if (documents == 0) {
      std::cerr << input_path << ": no JSON lines\n";
      return 1;
    }
    return status;
  } catch (const std::exception& e) {
    std::cerr << schema_path << ": " << e.what() << '\n';
    return 2;
  }
}
