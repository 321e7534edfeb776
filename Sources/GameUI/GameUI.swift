public enum GameUIPlaceholder {}
