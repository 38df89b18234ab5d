#pragma once
// A small, strict XML reader for the chart tests: it rejects what is not well-formed (unclosed
// or mismatched tags, unquoted or duplicate attributes, bad entities, stray '<' or '&') and
// returns the element tree, so tests can read the coordinates the SVG really contains.
#include <cctype>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace chart_test {

struct xml_element {
  std::string name;
  std::map<std::string, std::string> attrs;
  std::vector<std::unique_ptr<xml_element>> children;
  std::string text; ///< character data directly inside, entities decoded

  std::string attr(const std::string& k) const {
    auto it = attrs.find(k);
    return it == attrs.end() ? std::string() : it->second;
  }
  bool has_class(const std::string& c) const {
    std::istringstream in(attr("class"));
    std::string w;
    while (in >> w)
      if (w == c)
        return true;
    return false;
  }
  /// Every descendant (depth first) for which pred is true.
  template <class Pred> void find_all(Pred pred, std::vector<const xml_element*>& out) const {
    for (const auto& c : children) {
      if (pred(*c))
        out.push_back(c.get());
      c->find_all(pred, out);
    }
  }
  template <class Pred> std::vector<const xml_element*> find_all(Pred pred) const {
    std::vector<const xml_element*> out;
    find_all(pred, out);
    return out;
  }
  /// The text of the <title> child, if any.
  std::string title() const {
    for (const auto& c : children)
      if (c->name == "title")
        return c->text;
    return {};
  }
};

class xml_reader {
public:
  explicit xml_reader(std::string text) : s_(std::move(text)) {}

  std::unique_ptr<xml_element> parse() {
    skip_space();
    if (starts("<?xml")) {
      const auto end = s_.find("?>", i_);
      if (end == std::string::npos)
        fail("unterminated XML declaration");
      i_ = end + 2;
    }
    skip_space();
    if (peek() != '<')
      fail("expected the root element");
    auto root = element();
    skip_space();
    if (i_ != s_.size())
      fail("content after the root element");
    return root;
  }

private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("XML error at offset " + std::to_string(i_) + ": " + what);
  }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  bool starts(const char* p) const {
    return s_.compare(i_, std::char_traits<char>::length(p), p) == 0;
  }
  void skip_space() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_])))
      ++i_;
  }
  static bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' ||
           c == '.';
  }
  std::string name() {
    const std::size_t start = i_;
    while (i_ < s_.size() && name_char(s_[i_]))
      ++i_;
    if (start == i_)
      fail("expected a name");
    return s_.substr(start, i_ - start);
  }
  std::string decode(const std::string& raw) {
    std::string out;
    for (std::size_t k = 0; k < raw.size(); ++k) {
      if (raw[k] == '<')
        fail("'<' in character data or attribute value");
      if (raw[k] != '&') {
        out += raw[k];
        continue;
      }
      const auto semi = raw.find(';', k);
      if (semi == std::string::npos)
        fail("'&' without ';'");
      const std::string ent = raw.substr(k + 1, semi - k - 1);
      if (ent == "amp")
        out += '&';
      else if (ent == "lt")
        out += '<';
      else if (ent == "gt")
        out += '>';
      else if (ent == "quot")
        out += '"';
      else if (ent == "apos")
        out += '\'';
      else if (ent.size() > 1 && ent[0] == '#') {
        const long code =
            ent[1] == 'x' ? std::stol(ent.substr(2), nullptr, 16) : std::stol(ent.substr(1));
        if (code < 128)
          out += static_cast<char>(code);
        else
          out += '?';
      } else
        fail("unknown entity &" + ent + ";");
      k = semi;
    }
    return out;
  }
  std::unique_ptr<xml_element> element() {
    ++i_; // '<'
    auto e = std::make_unique<xml_element>();
    e->name = name();
    while (true) {
      const std::size_t before = i_;
      skip_space();
      if (starts("/>")) {
        i_ += 2;
        return e;
      }
      if (peek() == '>') {
        ++i_;
        break;
      }
      if (i_ == before)
        fail("expected whitespace between attributes");
      const std::string key = name();
      if (peek() != '=')
        fail("attribute '" + key + "' without a value");
      ++i_;
      const char q = peek();
      if (q != '"' && q != '\'')
        fail("unquoted value of '" + key + "'");
      ++i_;
      const auto end = s_.find(q, i_);
      if (end == std::string::npos)
        fail("unterminated value of '" + key + "'");
      if (e->attrs.count(key))
        fail("duplicate attribute '" + key + "'");
      e->attrs[key] = decode(s_.substr(i_, end - i_));
      i_ = end + 1;
    }
    // Content.
    while (true) {
      if (i_ >= s_.size())
        fail("unclosed <" + e->name + ">");
      if (starts("</")) {
        i_ += 2;
        const std::string closing = name();
        if (closing != e->name)
          fail("</" + closing + "> closes <" + e->name + ">");
        skip_space();
        if (peek() != '>')
          fail("bad closing tag");
        ++i_;
        return e;
      }
      if (starts("<!--")) {
        const auto end = s_.find("-->", i_);
        if (end == std::string::npos)
          fail("unterminated comment");
        i_ = end + 3;
        continue;
      }
      if (peek() == '<') {
        e->children.push_back(element());
        continue;
      }
      const auto next = s_.find('<', i_);
      e->text += decode(s_.substr(i_, next - i_));
      i_ = next == std::string::npos ? s_.size() : next;
    }
  }

  std::string s_;
  std::size_t i_ = 0;
};

inline std::unique_ptr<xml_element> parse_xml(const std::string& text) {
  return xml_reader(text).parse();
}

/// Every text element's text, joined by spaces (so that wrapped legend notes read as one line).
inline std::string all_text(const xml_element& root) {
  std::string out;
  for (const auto* t : root.find_all([](const xml_element& e) { return e.name == "text"; }))
    out += t->text + " ";
  return out;
}

} // namespace chart_test
