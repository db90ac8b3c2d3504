/** A skill shipped inside the package: its files as text, seeded into the home on first use. */
export interface BundledSkill {
  readonly name: string
  readonly category?: string
  /** Path relative to the skill folder → content. */
  readonly files: Readonly<Record<string, string>>
  /** Files (relative paths) written with the executable bit. */
  readonly executable?: ReadonlyArray<string>
}
