#pragma once
// A small JSON Schema validator for the CLI tests (tests/schemas/*.json). It knows the keywords
// those schemas use and rejects any other, so a schema never silently checks less than it says:
//   type (string or list; "integer" accepts whole floats), enum, const, properties, required,
//   additionalProperties (bool or schema), patternProperties, items, minItems, maxItems,
//   minimum, maximum, exclusiveMinimum, exclusiveMaximum, minLength, pattern (ECMAScript,
//   searched), anyOf, oneOf, allOf, $ref ("#/$defs/NAME" only), and the annotations $schema,
//   $id, $comment, title, description, examples, $defs.
// Errors name the JSON pointer of the value and what is wrong with it.
#include <cmath>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace roofkit::testing {

/// Validates documents against one schema. Throws std::invalid_argument for a schema that uses
/// an unknown keyword or a bad $ref.
class json_schema {
public:
  explicit json_schema(nlohmann::json schema) : root_(std::move(schema)) { check_keywords(root_); }

  /// Every violation, one line each ("/kernels/0/name: missing required property"); empty
  /// when `doc` is valid.
  std::vector<std::string> validate(const nlohmann::json& doc) const {
    std::vector<std::string> errors;
    validate(root_, doc, "", errors);
    return errors;
  }

private:
  nlohmann::json root_;

  static const std::set<std::string>& known_keywords() {
    static const std::set<std::string> k = {"type",
                                            "enum",
                                            "const",
                                            "properties",
                                            "required",
                                            "additionalProperties",
                                            "patternProperties",
                                            "items",
                                            "minItems",
                                            "maxItems",
                                            "minimum",
                                            "maximum",
                                            "exclusiveMinimum",
                                            "exclusiveMaximum",
                                            "minLength",
                                            "pattern",
                                            "anyOf",
                                            "oneOf",
                                            "allOf",
                                            "$ref",
                                            "$schema",
                                            "$id",
                                            "$comment",
                                            "title",
                                            "description",
                                            "examples",
                                            "$defs"};
    return k;
  }

  void check_keywords(const nlohmann::json& s) const {
    if (s.is_boolean())
      return;
    if (!s.is_object())
      throw std::invalid_argument("a schema must be an object or a boolean, got " + s.dump());
    for (const auto& [key, value] : s.items()) {
      if (!known_keywords().count(key))
        throw std::invalid_argument("unsupported schema keyword '" + key + "'");
      if (key == "properties" || key == "patternProperties" || key == "$defs") {
        for (const auto& [name, sub] : value.items())
          check_keywords(sub);
      } else if (key == "items" || key == "additionalProperties") {
        check_keywords(value);
      } else if (key == "anyOf" || key == "oneOf" || key == "allOf") {
        for (const auto& sub : value)
          check_keywords(sub);
      } else if (key == "$ref") {
        (void)resolve(value.get<std::string>());
      }
    }
  }

  const nlohmann::json& resolve(const std::string& ref) const {
    const std::string prefix = "#/$defs/";
    if (ref.rfind(prefix, 0) != 0)
      throw std::invalid_argument("unsupported $ref '" + ref + "' (only #/$defs/NAME)");
    const auto defs = root_.find("$defs");
    const std::string name = ref.substr(prefix.size());
    if (defs == root_.end() || !defs->contains(name))
      throw std::invalid_argument("$ref '" + ref + "' names no definition");
    return (*defs)[name];
  }

  static std::string type_of(const nlohmann::json& v) {
    switch (v.type()) {
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::boolean:
      return "boolean";
    case nlohmann::json::value_t::string:
      return "string";
    case nlohmann::json::value_t::array:
      return "array";
    case nlohmann::json::value_t::object:
      return "object";
    case nlohmann::json::value_t::number_float:
      return "number";
    default:
      return "integer";
    }
  }

  static bool has_type(const nlohmann::json& v, const std::string& type) {
    const std::string t = type_of(v);
    if (t == type)
      return true;
    if (type == "number")
      return t == "integer";
    if (type == "integer" && t == "number") {
      const double d = v.get<double>();
      return std::isfinite(d) && std::floor(d) == d;
    }
    return false;
  }

  static std::string child(const std::string& path, const std::string& key) {
    std::string escaped;
    for (char c : key)
      escaped += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    return path + "/" + escaped;
  }

  void validate(const nlohmann::json& s, const nlohmann::json& v, const std::string& path,
                std::vector<std::string>& errors) const {
    const std::string at = path.empty() ? "(root)" : path;
    if (s.is_boolean()) {
      if (!s.get<bool>())
        errors.push_back(at + ": no value is allowed here");
      return;
    }
    if (const auto ref = s.find("$ref"); ref != s.end())
      validate(resolve(ref->get<std::string>()), v, path, errors);
    if (const auto type = s.find("type"); type != s.end()) {
      const std::vector<std::string> types =
          type->is_array() ? type->get<std::vector<std::string>>()
                           : std::vector<std::string>{type->get<std::string>()};
      bool ok = false;
      for (const auto& t : types)
        ok = ok || has_type(v, t);
      if (!ok) {
        errors.push_back(at + ": expected " + type->dump() + ", got " + type_of(v) + " " +
                         v.dump().substr(0, 60));
        return; // the other keywords would only repeat the mismatch
      }
    }
    if (const auto e = s.find("enum"); e != s.end()) {
      bool found = false;
      for (const auto& option : *e)
        found = found || option == v;
      if (!found)
        errors.push_back(at + ": " + v.dump() + " is not one of " + e->dump());
    }
    if (const auto c = s.find("const"); c != s.end() && *c != v)
      errors.push_back(at + ": " + v.dump() + " is not " + c->dump());
    if (v.is_number()) {
      const double d = v.get<double>();
      if (const auto m = s.find("minimum"); m != s.end() && !(d >= m->get<double>()))
        errors.push_back(at + ": " + v.dump() + " < minimum " + m->dump());
      if (const auto m = s.find("maximum"); m != s.end() && !(d <= m->get<double>()))
        errors.push_back(at + ": " + v.dump() + " > maximum " + m->dump());
      if (const auto m = s.find("exclusiveMinimum"); m != s.end() && !(d > m->get<double>()))
        errors.push_back(at + ": " + v.dump() + " <= exclusive minimum " + m->dump());
      if (const auto m = s.find("exclusiveMaximum"); m != s.end() && !(d < m->get<double>()))
        errors.push_back(at + ": " + v.dump() + " >= exclusive maximum " + m->dump());
    }
    if (v.is_string()) {
      const auto& text = v.get_ref<const std::string&>();
      if (const auto m = s.find("minLength"); m != s.end() && text.size() < m->get<std::size_t>())
        errors.push_back(at + ": string shorter than " + m->dump());
      if (const auto p = s.find("pattern");
          p != s.end() && !std::regex_search(text, std::regex(p->get<std::string>())))
        errors.push_back(at + ": " + v.dump() + " does not match " + p->dump());
    }
    if (v.is_array()) {
      if (const auto m = s.find("minItems"); m != s.end() && v.size() < m->get<std::size_t>())
        errors.push_back(at + ": " + std::to_string(v.size()) + " items, fewer than " + m->dump());
      if (const auto m = s.find("maxItems"); m != s.end() && v.size() > m->get<std::size_t>())
        errors.push_back(at + ": " + std::to_string(v.size()) + " items, more than " + m->dump());
      if (const auto items = s.find("items"); items != s.end())
        for (std::size_t i = 0; i < v.size(); ++i)
          validate(*items, v[i], path + "/" + std::to_string(i), errors);
    }
    if (v.is_object())
      validate_object(s, v, path, errors);
    for (const char* combinator : {"anyOf", "oneOf", "allOf"}) {
      const auto list = s.find(combinator);
      if (list == s.end())
        continue;
      std::size_t matched = 0;
      std::vector<std::string> all_errors;
      std::string firsts; // the first violation of each alternative
      for (std::size_t i = 0; i < list->size(); ++i) {
        std::vector<std::string> sub_errors;
        validate((*list)[i], v, path, sub_errors);
        if (sub_errors.empty()) {
          ++matched;
          continue;
        }
        firsts += (firsts.empty() ? "[" : "; [") + std::to_string(i) + "] " + sub_errors.front();
        all_errors.insert(all_errors.end(), sub_errors.begin(), sub_errors.end());
      }
      const std::string name = combinator;
      if (name == "allOf" && matched != list->size())
        errors.insert(errors.end(), all_errors.begin(), all_errors.end());
      else if (name == "anyOf" && matched == 0)
        errors.push_back(at + ": matches none of anyOf: " + firsts);
      else if (name == "oneOf" && matched != 1)
        errors.push_back(at + ": matches " + std::to_string(matched) + " of oneOf, not 1" +
                         (matched == 0 ? ": " + firsts : std::string()));
    }
  }

  void validate_object(const nlohmann::json& s, const nlohmann::json& v, const std::string& path,
                       std::vector<std::string>& errors) const {
    const std::string at = path.empty() ? "(root)" : path;
    if (const auto required = s.find("required"); required != s.end())
      for (const auto& name : *required)
        if (!v.contains(name.get<std::string>()))
          errors.push_back(at + ": missing required property " + name.dump());
    const auto props = s.find("properties");
    const auto patterns = s.find("patternProperties");
    const auto additional = s.find("additionalProperties");
    for (const auto& [key, value] : v.items()) {
      bool matched = false;
      if (props != s.end() && props->contains(key)) {
        matched = true;
        validate((*props)[key], value, child(path, key), errors);
      }
      if (patterns != s.end())
        for (const auto& [pattern, sub] : patterns->items())
          if (std::regex_search(key, std::regex(pattern))) {
            matched = true;
            validate(sub, value, child(path, key), errors);
          }
      if (!matched && additional != s.end()) {
        if (additional->is_boolean() && !additional->get<bool>())
          errors.push_back(child(path, key) + ": property not allowed by the schema");
        else if (additional->is_object())
          validate(*additional, value, child(path, key), errors);
      }
    }
  }
};

} // namespace roofkit::testing
