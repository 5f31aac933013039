const greet = (name) => `Hello ${name ?? "world"}`;
class Box { #v = 1; get v() { return this.#v; } }
console.log(greet(), new Box().v, [1, 2, 3].at(-1));
