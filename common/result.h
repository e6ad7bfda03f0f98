// sr::Result<T, E>: the one shape of an expected failure in a public API (docs/CONVENTIONS.md, "Three kinds of
// failure").
//
// # Contract
// - A function that can fail in an expected way (a bad packet, a bad file, an invalid config, a refused request)
//   returns a Result holding either its value or an error value E saying what went wrong. Result is [[nodiscard]]:
//   callers must look at it; when ignoring one is right, write `(void)` in front of the call.
// - An operation that produces nothing on success returns a Status<E> = Result<Ok, E>: `return {};` is success,
//   `return error;` (or `return sr::fail(error);`) is failure.
// - Programmer mistakes (broken preconditions) are asserts, not error values: so is asking a Result for value()
//   when it holds an error, or for error() when it holds a value.
// - Exceptions only at I/O edges (files, SQLite, command lines, third-party parsers), caught there and turned into
//   a Result.
//
// # Construction
// Implicitly from a T (a value) and, when E is not the same type as T, from an E (an error); from anything that
// converts to exactly one of T and E. sr::fail(e) says "this is the error" where the types could be confused
// (T == E, or an argument that converts to both).
//
// Pure: standard library only.
#pragma once

#include <cassert>
#include <concepts>
#include <type_traits>
#include <utility>
#include <variant>

namespace sr {

// The value of an operation that returns nothing on success.
struct Ok {
  bool operator==(const Ok&) const = default;
};

// An error on its way into a Result: `return sr::fail(e);`.
template <class E>
struct Failure {
  E error;
};

template <class E>
[[nodiscard]] Failure<std::decay_t<E>> fail(E&& error) {
  return Failure<std::decay_t<E>>{std::forward<E>(error)};
}

namespace detail {
template <class U>
struct IsFailure : std::false_type {};
template <class E>
struct IsFailure<Failure<E>> : std::true_type {};
}  // namespace detail

template <class T, class E>
class [[nodiscard]] Result {
  template <class U>
  static constexpr bool kOther =
      !std::is_same_v<std::remove_cvref_t<U>, Result> && !std::is_same_v<std::remove_cvref_t<U>, T> &&
      !std::is_same_v<std::remove_cvref_t<U>, E> && !detail::IsFailure<std::remove_cvref_t<U>>::value;

 public:
  using value_type = T;
  using error_type = E;

  // Success, for a Status: `return {};`.
  Result() requires std::is_same_v<T, Ok> : v_(std::in_place_index<0>) {}

  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(E error)                                                    // NOLINT(google-explicit-constructor)
      requires(!std::is_same_v<T, E>)
      : v_(std::in_place_index<1>, std::move(error)) {}
  template <class U>
  requires std::constructible_from<E, U> Result(Failure<U> failure)
      : v_(std::in_place_index<1>, std::move(failure.error)) {}  // NOLINT

  // Anything that converts to exactly one of T and E ("a message" into a Status<std::string>).
  template <class U>
  requires(kOther<U>&& std::is_convertible_v<U, T> && !std::is_convertible_v<U, E>) Result(U&& value)
      : v_(std::in_place_index<0>, std::forward<U>(value)) {}  // NOLINT
  template <class U, class = void>  // the extra parameter keeps the two apart when T == E (clang 14)
  requires(kOther<U>&& std::is_convertible_v<U, E> && !std::is_convertible_v<U, T>) Result(U&& error)
      : v_(std::in_place_index<1>, std::forward<U>(error)) {}  // NOLINT

  [[nodiscard]] bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  // Precondition: ok().
  [[nodiscard]] T& value() & {
    assert(ok());
    return std::get<0>(v_);
  }
  [[nodiscard]] const T& value() const& {
    assert(ok());
    return std::get<0>(v_);
  }
  [[nodiscard]] T&& value() && {
    assert(ok());
    return std::get<0>(std::move(v_));
  }

  // Precondition: !ok().
  [[nodiscard]] E& error() & {
    assert(!ok());
    return std::get<1>(v_);
  }
  [[nodiscard]] const E& error() const& {
    assert(!ok());
    return std::get<1>(v_);
  }
  [[nodiscard]] E&& error() && {
    assert(!ok());
    return std::get<1>(std::move(v_));
  }

  friend bool operator==(const Result& a,
                         const Result& b) requires std::equality_comparable<T> && std::equality_comparable<E> {
    return a.v_ == b.v_;
  }

 private:
  std::variant<T, E> v_;
};

// The result of an operation that returns nothing on success: ok, or an E saying what went wrong.
template <class E>
using Status = Result<Ok, E>;

}  // namespace sr
